import { launch } from '../src/dev/launcher.ts';

await launch();
