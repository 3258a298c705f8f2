import type { Environment } from '../api.ts';
import './mode-switch.css';

const MODES = {
  test: {
    badge: 'Test',
    other: 'live',
    action: 'Switch to live',
    effect: 'Opens your real passports, keys and settings.',
  },
  live: {
    badge: 'Live',
    other: 'test',
    action: 'Switch to test',
    effect: 'Opens test data; live stays as it is.',
  },
} as const;

/**
 * Which mode the console shows, and a button that says where it leads and what that changes. A badge names
 * the mode in words (not a colour, not a checkbox whose label stays the same in both states).
 */
export function ModeSwitch({
  environment,
  onSwitch,
}: {
  environment: Environment;
  onSwitch: (environment: Environment) => void;
}) {
  const mode = MODES[environment];
  return (
    <div className="mode-switch">
      <span className={`mode-badge ${environment}`}>
        {mode.badge}
        <span className="mode-word"> mode</span>
      </span>
      <button
        type="button"
        className="secondary"
        aria-describedby="mode-switch-effect"
        title={mode.effect}
        onClick={() => onSwitch(mode.other)}
      >
        {mode.action}
      </button>
      <span id="mode-switch-effect" className="mode-effect">
        {mode.effect}
      </span>
    </div>
  );
}

/** The line above the frame naming the mode and what it means for what you do. */
export function ModeBanner({ environment }: { environment: Environment }) {
  return environment === 'test' ? (
    <p className="mode-banner test-banner" role="note">
      Test mode: you are looking at test data.{' '}
      <span className="banner-more">Nothing here touches live passports or live keys.</span>
    </p>
  ) : (
    <p className="mode-banner live-banner" role="note">
      Live mode: real passports and keys.{' '}
      <span className="banner-more">What you change here reaches your customers.</span>
    </p>
  );
}
