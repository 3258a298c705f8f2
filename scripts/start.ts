import { launch } from './dev/launcher.ts';

await launch();
