import { child, getAt, isObject } from './pointer.ts';

/**
 * A form generated from a content specification's JSON Schema (as GET /v1/content-specifications/{id} serves
 * it): objects are fieldsets, arrays lists with Add and Remove, enums selects, numbers and dates their inputs.
 * Labels are the schema's descriptions; required members are marked; each field shows its error by pointer.
 */

type Json = Record<string, unknown>;

export interface FormContext {
  value: Json;
  /** What the passport inherits (an item's model and batch data), shown beside empty fields. */
  inherited: Json;
  errors: ReadonlyMap<string, string>;
  onChange: (pointer: string, value: unknown) => void;
}

/** The element id of the field at a pointer (the completeness panel and the error summary link to it). */
interface FieldProps {
  schema: Json;
  pointer: string;
  label: string;
  required: boolean;
  context: FormContext;
}

export const fieldId = (pointer: string) => `field${pointer.replace(/[^A-Za-z0-9]+/g, '-')}`;

/** The label of the field at a pointer (its schema's description), for the error summary. */
export function labelAt(schema: Json, pointer: string): string {
  let at: Json | undefined = schema;
  let name = pointer;
  for (const token of pointer.split('/').slice(1)) {
    const properties: Record<string, Json> | undefined = isObject(at?.properties)
      ? (at.properties as Record<string, Json>)
      : undefined;
    at = properties ? properties[token] : isObject(at?.items) ? (at.items as Json) : undefined;
    name = properties ? token : `${name} ${Number(token) + 1}`;
  }
  return at ? describe(at, name) : pointer;
}

const describe = (schema: Json, name: string): string =>
  typeof schema.description === 'string' ? schema.description.replace(/\.$/, '') : name;

function Feedback({ id, pointer, context }: { id: string; pointer: string; context: FormContext }) {
  const error = context.errors.get(pointer);
  const from = getAt(context.inherited, pointer);
  return (
    <>
      {from !== undefined && getAt(context.value, pointer) === undefined && !isObject(from) ? (
        <p className="hint" id={`${id}-inherited`}>
          Inherited: {Array.isArray(from) ? `${from.length} item(s)` : String(from)}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

function describedBy(id: string, pointer: string, context: FormContext) {
  const ids = [
    context.errors.has(pointer) ? `${id}-error` : '',
    getAt(context.inherited, pointer) !== undefined ? `${id}-inherited` : '',
  ].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

function parse(schema: Json, raw: string): unknown {
  if (raw === '') return undefined;
  if (schema.type === 'number' || schema.type === 'integer') {
    const number = Number(raw);
    return Number.isNaN(number) ? raw : number;
  }
  return raw;
}

function Leaf(props: FieldProps) {
  const { schema, pointer, label, required, context } = props;
  const id = fieldId(pointer);
  const current = getAt(context.value, pointer);
  const common = {
    id,
    name: pointer,
    'aria-required': required || undefined,
    'aria-invalid': context.errors.has(pointer) || undefined,
    'aria-describedby': describedBy(id, pointer, context),
  };
  const change = (raw: string) => context.onChange(pointer, parse(schema, raw));
  const shown = current === undefined ? '' : String(current);
  let input: React.ReactNode;
  if (Array.isArray(schema.enum)) {
    input = (
      <select {...common} value={shown} onChange={(event) => change(event.target.value)}>
        <option value="">— not set —</option>
        {(schema.enum as string[]).map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else {
    const numeric = schema.type === 'number' || schema.type === 'integer';
    const type = numeric ? 'number' : schema.format === 'date' ? 'date' : 'text';
    input = (
      <input
        {...common}
        type={type}
        value={shown}
        onChange={(event) => change(event.target.value)}
        {...(numeric ? { step: schema.type === 'integer' ? 1 : 'any', inputMode: 'decimal' as const } : {})}
        {...(schema.format === 'date-time' ? { placeholder: '2026-01-31T12:00:00Z' } : {})}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? <span className="required"> (required)</span> : null}
      </label>
      {input}
      <Feedback id={id} pointer={pointer} context={context} />
    </div>
  );
}

/** A fieldset for an object or a list: its label, required mark, error and inherited note. */
function Group({ pointer, label, required, context, children }: FieldProps & { children: React.ReactNode }) {
  const id = fieldId(pointer);
  return (
    <fieldset className="field-group" id={id} aria-describedby={describedBy(id, pointer, context)}>
      <legend>
        {label}
        {required ? <span className="required"> (required)</span> : null}
      </legend>
      <Feedback id={id} pointer={pointer} context={context} />
      {children}
    </fieldset>
  );
}

function ArrayField(props: FieldProps) {
  const { schema, pointer, label, context } = props;
  const items = (getAt(context.value, pointer) as unknown[] | undefined) ?? [];
  const itemSchema = (schema.items ?? {}) as Json;
  const empty = isObject(itemSchema.properties) ? {} : '';
  return (
    <Group {...props}>
      {items.map((_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an item is its position in the list
        <div className="array-item" key={index}>
          <Field
            schema={itemSchema}
            pointer={child(pointer, index)}
            label={`${describe(itemSchema, 'Item')} (${index + 1})`}
            required={false}
            context={context}
          />
          <button
            type="button"
            className="secondary"
            onClick={() => {
              const rest = items.filter((__, at) => at !== index);
              context.onChange(pointer, rest.length > 0 ? rest : undefined);
            }}
          >
            Remove {index + 1}
            <span className="visually-hidden"> from {label}</span>
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary add"
        onClick={() => context.onChange(pointer, [...items, empty])}
      >
        Add<span className="visually-hidden"> to {label}</span>
      </button>
    </Group>
  );
}

export function Field(props: FieldProps) {
  const { schema, pointer, context } = props;
  if (schema.type === 'array') return <ArrayField {...props} />;
  if (schema.type !== 'object' || !isObject(schema.properties)) return <Leaf {...props} />;
  const members = Object.entries(schema.properties as Record<string, Json>);
  const mandatory = new Set((schema.required as string[] | undefined) ?? []);
  return (
    <Group {...props}>
      {members.map(([name, member]) => (
        <Field
          key={name}
          schema={member}
          pointer={child(pointer, name)}
          label={describe(member, name)}
          required={mandatory.has(name)}
          context={context}
        />
      ))}
    </Group>
  );
}

/** The whole form's members: one fieldset per top-level member (the specification's clusters). */
export function SchemaFields({ schema, context }: { schema: Json; context: FormContext }) {
  const mandatory = new Set((schema.required as string[] | undefined) ?? []);
  return (
    <>
      {Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, member]) => (
        <Field
          key={name}
          schema={member}
          pointer={child('', name)}
          label={describe(member, name)}
          required={mandatory.has(name)}
          context={context}
        />
      ))}
    </>
  );
}
