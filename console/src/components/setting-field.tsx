import type { InputHTMLAttributes } from 'react';

interface SettingFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** What the value must look like. */
  format: string;
  /** Where the value shows once saved, and from when. */
  where: string;
  /** The API's rule this value broke at the last save. */
  error: string | undefined;
  readOnly: boolean;
  input?: InputHTMLAttributes<HTMLInputElement>;
}

/** One company setting: its label, the rule it follows, where it shows, and the API's refusal if any. */
export function SettingField({
  name,
  label,
  value,
  onChange,
  format,
  where,
  error,
  readOnly,
  input,
}: SettingFieldProps) {
  const id = `setting-${name}`;
  return (
    <div className="setting-field">
      <label htmlFor={id}>{label}</label>
      <p className="hint" id={`${id}-format`}>
        {format}
      </p>
      <input
        {...input}
        id={id}
        name={name}
        value={value}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-format ${id}-where${error ? ` ${id}-error` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      <p className="where" id={`${id}-where`}>
        <strong>Where it shows:</strong> {where}
      </p>
    </div>
  );
}
