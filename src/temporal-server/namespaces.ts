import { randomUUID } from 'node:crypto';
import { alreadyExists, invalidArgument, namespaceNotFound } from './errors.ts';
import { enums, int64, msToDuration, type temporal } from './proto.ts';
import { DEFAULT_CUSTOM_SEARCH_ATTRIBUTES, SYSTEM_SEARCH_ATTRIBUTES } from './search-attributes.ts';

export interface Namespace {
  readonly name: string;
  readonly id: string;
  readonly description: string;
  readonly ownerEmail: string;
  readonly data: Record<string, string>;
  readonly retentionMs: number;
  /** Custom search attributes (name -> IndexedValueType). */
  readonly customSearchAttributes: Map<string, number>;
}

const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;

export class NamespaceRegistry {
  #namespaces = new Map<string, Namespace>();

  register(
    name: string,
    options: {
      description?: string;
      ownerEmail?: string;
      data?: Record<string, string>;
      retentionMs?: number;
    } = {},
  ): Namespace {
    if (!name) throw invalidArgument('Namespace name is required.');
    if (this.#namespaces.has(name)) throw alreadyExists(`Namespace ${name} already exists.`);
    const namespace: Namespace = {
      name,
      id: randomUUID(),
      description: options.description ?? '',
      ownerEmail: options.ownerEmail ?? '',
      data: options.data ?? {},
      retentionMs: options.retentionMs || DEFAULT_RETENTION_MS,
      customSearchAttributes: new Map(Object.entries(DEFAULT_CUSTOM_SEARCH_ATTRIBUTES)),
    };
    this.#namespaces.set(name, namespace);
    return namespace;
  }

  ensure(name: string): Namespace {
    return this.#namespaces.get(name) ?? this.register(name);
  }

  get(name: string): Namespace {
    const namespace = this.#namespaces.get(name);
    if (!namespace) throw namespaceNotFound(name);
    return namespace;
  }

  getById(id: string): Namespace {
    for (const namespace of this.#namespaces.values()) if (namespace.id === id) return namespace;
    throw namespaceNotFound(id);
  }

  list(): Namespace[] {
    return [...this.#namespaces.values()];
  }

  /** System and custom attributes of a namespace, as the visibility query and validation see them. */
  searchAttributeTypes(name: string): Map<string, number> {
    const namespace = this.get(name);
    return new Map([...Object.entries(SYSTEM_SEARCH_ATTRIBUTES), ...namespace.customSearchAttributes]);
  }

  addSearchAttributes(name: string, attributes: Record<string, number>): void {
    const namespace = this.get(name);
    for (const [attr, type] of Object.entries(attributes)) {
      if (attr in SYSTEM_SEARCH_ATTRIBUTES)
        throw invalidArgument(`Search attribute ${attr} is reserved by system.`);
      const existing = namespace.customSearchAttributes.get(attr);
      if (existing !== undefined && existing !== type) {
        throw alreadyExists(`Search attribute ${attr} already exists with a different type.`);
      }
      if (!type) throw invalidArgument(`Search attribute ${attr} needs a type.`);
      namespace.customSearchAttributes.set(attr, type);
    }
  }
}

export function describeNamespace(
  namespace: Namespace,
): temporal.api.workflowservice.v1.IDescribeNamespaceResponse {
  return {
    namespaceInfo: {
      name: namespace.name,
      id: namespace.id,
      state: enums.NamespaceState.NAMESPACE_STATE_REGISTERED,
      description: namespace.description,
      ownerEmail: namespace.ownerEmail,
      data: namespace.data,
      // Workers let polls finish at shutdown (ShutdownWorker ends them); everything else off: no worker
      // heartbeating, no worker commands, no poller autoscaling.
      capabilities: { workerPollCompleteOnShutdown: true },
      supportsSchedules: false,
    },
    config: {
      workflowExecutionRetentionTtl: msToDuration(namespace.retentionMs),
      historyArchivalState: enums.ArchivalState.ARCHIVAL_STATE_DISABLED,
      visibilityArchivalState: enums.ArchivalState.ARCHIVAL_STATE_DISABLED,
      customSearchAttributeAliases: {},
    },
    isGlobalNamespace: false,
    failoverVersion: int64(0),
  };
}
