import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { loadConfig } from '../../src/platform/config/config.ts';
import {
  KUBERNETES_VERSIONS,
  obtainKubeconform,
  obtainKubernetesSchemas,
  obtainManifestTool,
  runCapture,
} from '../support/deploy-tools.ts';
import { LIVE_TEST_SECRETS } from '../support/secrets.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K8S = join(ROOT, 'deploy/k8s');

// biome-ignore lint/suspicious/noExplicitAny: manifests are arbitrary JSON read from YAML
type Manifest = any;

let kubeconform: string;
let schemas: string;
let tool: string;
let scratch: string;

beforeAll(async () => {
  [kubeconform, schemas, tool] = await Promise.all([
    obtainKubeconform(),
    obtainKubernetesSchemas(),
    obtainManifestTool(),
  ]);
  scratch = await mkdtemp(join(tmpdir(), 'dpp-deploy-'));
}, 600_000);
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** kubeconform -strict (unknown fields refused) against the Kubernetes JSON schemas, one line per resource. */
async function validate(path: string, version: string) {
  const run = await runCapture(kubeconform, [
    '-strict',
    '-summary',
    '-verbose',
    '-output',
    'json',
    '-kubernetes-version',
    version.slice(1),
    '-skip',
    // ServiceMonitor (deploy/k8s/prometheus-operator): a CRD, validated below against its own schema.
    'Kustomization,ServiceMonitor',
    '-schema-location',
    join(
      schemas,
      '{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json',
    ),
    path,
  ]);
  const report = JSON.parse(run.stdout) as {
    resources: { filename: string; kind: string; name: string; status: string; msg: string }[];
    summary: { valid: number; invalid: number; errors: number; skipped: number };
  };
  return { code: run.code, ...report };
}

async function manifests(...files: string[]): Promise<Manifest[]> {
  const run = await runCapture(tool, ['yaml', ...files]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Manifest[];
}

describe('Kubernetes manifests (deploy/k8s)', () => {
  test.each(KUBERNETES_VERSIONS)(
    'every resource is valid for Kubernetes %s (kubeconform -strict)',
    async (version) => {
      const report = await validate(K8S, version);
      const problems = report.resources.filter(
        (r) => r.status !== 'statusValid' && r.status !== 'statusSkipped',
      );
      assert.deepEqual(problems, []);
      assert.equal(report.code, 0);
      assert.deepEqual(
        report.resources
          .filter((r) => r.status === 'statusValid')
          .map((r) => `${r.kind}/${r.name}`)
          .sort(),
        [
          'ConfigMap/dpp-config',
          'Deployment/dpp-api',
          'Deployment/dpp-worker',
          'HorizontalPodAutoscaler/dpp-api',
          'Ingress/dpp-api',
          'Namespace/dpp',
          'NetworkPolicy/dpp-api',
          'NetworkPolicy/dpp-default-deny',
          'NetworkPolicy/dpp-worker',
          'PodDisruptionBudget/dpp-api',
          'PodDisruptionBudget/dpp-worker',
          'Secret/dpp-secrets',
          'Secret/dpp-signer-keys',
          'Service/dpp-api',
          'Service/dpp-worker-metrics',
        ],
      );
    },
  );

  test('the validator refuses what Kubernetes would: a wrong type, an unknown field', async () => {
    const api = await readFile(join(K8S, 'api.yaml'), 'utf8');
    const broken = join(scratch, 'broken.yaml');
    await writeFile(broken, api.replace('  replicas: 3\n', '  replicas: "three"\n  replica: 3\n'));
    const report = await validate(broken, KUBERNETES_VERSIONS[0]!);
    assert.notEqual(report.code, 0);
    const deployment = report.resources.find((r) => r.kind === 'Deployment')!;
    assert.equal(deployment.status, 'statusInvalid');
    assert.match(deployment.msg, /replicas': got string/);
    assert.match(deployment.msg, /additional properties 'replica' not allowed/);
  });

  test('API and worker run replicated with probes, resources and the Secret; PDBs and Services select them', async () => {
    const all = await manifests(...['api.yaml', 'worker.yaml', 'config.yaml'].map((f) => join(K8S, f)));
    const find = (kind: string, name: string) => all.find((m) => m.kind === kind && m.metadata.name === name);
    for (const [name, minReplicas] of [
      ['dpp-api', 3],
      ['dpp-worker', 2],
    ] as const) {
      const deployment = find('Deployment', name);
      assert.ok(deployment.spec.replicas >= minReplicas, `${name} replicas`);
      assert.equal(deployment.spec.strategy.rollingUpdate.maxUnavailable, 0);
      const [container] = deployment.spec.template.spec.containers;
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
        assert.ok(container[probe], `${name} ${probe}`);
      assert.ok(
        container.resources.requests.cpu &&
          container.resources.requests.memory &&
          container.resources.limits.memory,
      );
      assert.deepEqual(
        container.envFrom.map((source: Manifest) => source.configMapRef?.name ?? source.secretRef?.name),
        // The signer keys reach the worker only: the API sends no transaction.
        name === 'dpp-worker'
          ? ['dpp-config', 'dpp-secrets', 'dpp-signer-keys']
          : ['dpp-config', 'dpp-secrets'],
      );
      assert.equal(container.securityContext.allowPrivilegeEscalation, false);
      const labels = deployment.spec.template.metadata.labels;
      const pdb = find('PodDisruptionBudget', name);
      for (const [key, value] of Object.entries(pdb.spec.selector.matchLabels))
        assert.equal(labels[key], value);
      const service = all.find(
        (m) => m.kind === 'Service' && m.spec.selector['app.kubernetes.io/name'] === name,
      );
      assert.ok(service, `a Service selects ${name}`);
    }
    const api = find('Deployment', 'dpp-api').spec.template.spec.containers[0];
    assert.equal(api.readinessProbe.httpGet.path, '/readyz');
    assert.equal(api.livenessProbe.httpGet.path, '/healthz');
    assert.ok(
      find('PodDisruptionBudget', 'dpp-api').spec.minAvailable < find('Deployment', 'dpp-api').spec.replicas,
    );
    const config = find('ConfigMap', 'dpp-config').data;
    assert.match(config.TEMPORAL_ADDRESS, /:7233$/, 'a Temporal cluster');
    assert.equal(
      config.METRICS_PORT,
      String(find('Deployment', 'dpp-worker').spec.template.spec.containers[0].ports[0].containerPort),
    );
    assert.equal(
      config.DATABASE_URL,
      undefined,
      'the managed PostgreSQL URL (with its password) is in the Secret',
    );
    for (const name of [
      'CHAIN_RPC_URL_LIVE',
      'CHAIN_RPC_URL_TEST',
      'CHAIN_PRIVATE_KEY_LIVE',
      'METRICS_TOKEN',
    ])
      assert.equal(config[name], undefined, `${name} belongs in the Secret`);
    // The service accepts the ConfigMap with a Secret of the example's keys (real-looking values).
    const [secret, signerKeys] = await manifests(join(K8S, 'secret.example.yaml'));
    assert.equal(secret.metadata.name, 'dpp-secrets');
    assert.deepEqual(Object.keys(signerKeys.stringData).sort(), [
      'CHAIN_PRIVATE_KEY_LIVE',
      'CHAIN_PRIVATE_KEY_TEST',
    ]);
    for (const key of Object.keys(signerKeys.stringData))
      assert.equal(secret.stringData[key], undefined, `${key} is not in the Secret the API reads`);
    const secretValues = Object.fromEntries(
      Object.entries(secret.stringData as Record<string, string>).map(([key, example]) => [
        key,
        example.replaceAll('REPLACE', 'x'.repeat(40)),
      ]),
    ) as Record<string, string>;
    const loaded = loadConfig({
      ...config,
      ...secretValues,
      ...LIVE_TEST_SECRETS,
      DATABASE_URL: 'postgres://dpp:secret@postgres.example.com:5432/dpp?sslmode=require',
      CHAIN_PRIVATE_KEY_LIVE: `0x${'11'.repeat(32)}`,
      CHAIN_PRIVATE_KEY_TEST: `0x${'22'.repeat(32)}`,
    });
    assert.equal(loaded.metrics.workerPort, 9464);
    assert.equal(loaded.metrics.requireToken, true, 'NODE_ENV=production: /metrics needs METRICS_TOKEN');
  });

  test('network policies: everything denied but the API port in, the worker metrics port in, and the dependencies out', async () => {
    const all = await manifests(
      ...['api.yaml', 'worker.yaml', 'network-policy.yaml'].map((f) => join(K8S, f)),
    );
    const policies = all.filter((m) => m.kind === 'NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name === 'dpp-default-deny');
    assert.deepEqual(deny.spec.podSelector, {}, 'every pod of the namespace');
    assert.deepEqual([...deny.spec.policyTypes].sort(), ['Egress', 'Ingress']);
    assert.equal(deny.spec.ingress, undefined);
    assert.equal(deny.spec.egress, undefined);
    const containerPorts = (name: string) =>
      all
        .find((m) => m.kind === 'Deployment' && m.metadata.name === name)
        .spec.template.spec.containers[0].ports.map((p: Manifest) => p.containerPort);
    for (const name of ['dpp-api', 'dpp-worker']) {
      const policy = policies.find((p) => p.metadata.name === name);
      const labels = all.find((m) => m.kind === 'Deployment' && m.metadata.name === name).spec.template
        .metadata.labels;
      for (const [key, value] of Object.entries(policy.spec.podSelector.matchLabels))
        assert.equal(labels[key], value, `${name}: the policy selects its pods`);
      // In: only the container's own port(s).
      const inPorts = policy.spec.ingress.flatMap((rule: Manifest) =>
        rule.ports.map((p: Manifest) => p.port),
      );
      assert.deepEqual(inPorts, containerPorts(name), `${name}: ingress only on its port`);
      // Out: DNS, Temporal, IPFS, OTLP, PostgreSQL, SMTP, HTTPS (chain RPC, Stripe, webhooks).
      const outPorts = new Set(
        policy.spec.egress.flatMap((rule: Manifest) => rule.ports.map((p: Manifest) => p.port)),
      );
      for (const port of [53, 7233, 5001, 4318, 5432, 587, 443])
        assert.ok(outPorts.has(port), `${name}: ${port}`);
      const https = policy.spec.egress.find((rule: Manifest) =>
        rule.ports.some((p: Manifest) => p.port === 443),
      );
      for (const privateRange of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16'])
        assert.ok(https.to[0].ipBlock.except.includes(privateRange), `${name}: no HTTPS to ${privateRange}`);
    }
  });

  test('the Ingress sends the public host to the API Service over TLS from a Secret', async () => {
    const all = await manifests(...['api.yaml', 'ingress.yaml', 'config.yaml'].map((f) => join(K8S, f)));
    const ingress = all.find((m) => m.kind === 'Ingress');
    const service = all.find((m) => m.kind === 'Service' && m.metadata.name === 'dpp-api');
    const host = new URL(all.find((m) => m.kind === 'ConfigMap').data.PUBLIC_BASE_URL).host;
    assert.deepEqual(ingress.spec.tls, [{ hosts: [host], secretName: 'dpp-tls' }]);
    const [rule] = ingress.spec.rules;
    assert.equal(rule.host, host, 'the host credentials and Digital Link URIs are built from');
    const backend = rule.http.paths[0].backend.service;
    assert.equal(backend.name, service.metadata.name);
    assert.ok(service.spec.ports.some((p: Manifest) => p.name === backend.port.name));
  });

  test('Prometheus Operator overlay: ServiceMonitors valid against the Operator’s CRD schema, scraping both Services with the bearer token', async () => {
    const overlay = join(K8S, 'prometheus-operator');
    const [kustomization] = await manifests(join(overlay, 'kustomization.yaml'));
    assert.deepEqual(kustomization.resources, ['..', 'service-monitors.yaml'], 'the base plus the monitors');
    const monitors = await manifests(join(overlay, 'service-monitors.yaml'));
    const base = await manifests(
      ...['api.yaml', 'worker.yaml', 'secret.example.yaml'].map((f) => join(K8S, f)),
    );
    const secret = base.find((m) => m.kind === 'Secret');
    assert.deepEqual(monitors.map((m) => m.metadata.name).sort(), ['dpp-api', 'dpp-worker']);
    for (const monitor of monitors) {
      // The validator @kubernetes-models/prometheus-operator generates from the Operator's CRD OpenAPI schema.
      new ServiceMonitor(monitor).validate();
      const service = base.find(
        (m) =>
          m.kind === 'Service' &&
          Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => m.metadata.labels[k] === v),
      );
      assert.ok(service, `${monitor.metadata.name} selects a Service`);
      for (const endpoint of monitor.spec.endpoints) {
        assert.ok(
          service.spec.ports.some((p: Manifest) => p.name === endpoint.port),
          `${monitor.metadata.name}: port ${endpoint.port} is a named port of ${service.metadata.name}`,
        );
        assert.equal(endpoint.path, '/metrics');
        assert.equal(endpoint.authorization.type, 'Bearer');
        assert.equal(endpoint.authorization.credentials.name, secret.metadata.name);
        assert.ok(
          endpoint.authorization.credentials.key in secret.stringData,
          'METRICS_TOKEN is a Secret key',
        );
      }
    }
    // The validator refuses what the Operator's schema refuses.
    const broken = structuredClone(monitors[0]);
    broken.spec.endpoints[0].interval = 30;
    broken.spec.endpoints[0].scheme = 'ftp';
    assert.throws(
      () => new ServiceMonitor(broken).validate(),
      /interval must be string.*|scheme must be equal/s,
    );
    delete broken.spec.selector;
    assert.throws(() => new ServiceMonitor(broken).validate(), /required property selector/);
  });

  test('kustomization.yaml lists every manifest but the example Secret', async () => {
    const [kustomization] = await manifests(join(K8S, 'kustomization.yaml'));
    const files = (await readdir(K8S)).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    assert.deepEqual(
      [...kustomization.resources].sort(),
      files.filter((f) => f !== 'secret.example.yaml').sort(),
    );
  });
});

describe('docker-compose.yml', () => {
  const secrets = {
    DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
    USER_TOKEN_KEY: 'cd'.repeat(32),
    WALLET_MASTER_SECRET: 'wallet-master-secret-for-the-compose-check',
    CUSTODY_MASTER_SECRET: 'custody-master-secret-for-the-compose-check',
  };
  const load = (file: string, env: Record<string, string> = secrets) =>
    runCapture(tool, ['compose', file], { PATH: process.env.PATH, ...env });

  test('loads as docker compose loads it (Compose Specification schema); API and worker in replicas behind one port', async () => {
    const run = await load(join(ROOT, 'docker-compose.yml'));
    assert.equal(run.code, 0, run.stderr);
    const project = JSON.parse(run.stdout) as { services: Record<string, Manifest> };
    const { api, worker, proxy } = project.services as Record<string, Manifest>;
    assert.equal(api.deploy.replicas, 2);
    assert.equal(worker.deploy.replicas, 2);
    assert.equal(api.ports, undefined, 'replicas cannot share a host port');
    assert.deepEqual(
      proxy.ports.map((p: Manifest) => [p.published, p.target]),
      [['3000', 3000]],
    );
    assert.equal(worker.depends_on['chain-setup'].condition, 'service_completed_successfully');
    assert.equal(api.environment.METRICS_PORT, '9464');
    // The service accepts the environment compose gives it (the image sets NODE_ENV=production).
    const loaded = loadConfig({ NODE_ENV: 'production', ...api.environment });
    assert.ok(loaded.trustedProxies.length > 0);
    const scaled = await load(join(ROOT, 'docker-compose.yml'), {
      ...secrets,
      API_REPLICAS: '4',
      WORKER_REPLICAS: '3',
    });
    const services = (JSON.parse(scaled.stdout) as { services: Record<string, Manifest> }).services;
    assert.deepEqual([services.api.deploy.replicas, services.worker.deploy.replicas], [4, 3]);
  });

  test('refuses to load without the four secrets, naming them; and refuses keys the specification does not know', async () => {
    const bare = await load(join(ROOT, 'docker-compose.yml'), {});
    assert.notEqual(bare.code, 0);
    for (const name of Object.keys(secrets)) assert.match(bare.stderr, new RegExp(name));
    const compose = await readFile(join(ROOT, 'docker-compose.yml'), 'utf8');
    const broken = join(scratch, 'docker-compose.yml');
    await writeFile(broken, compose.replace('  worker:\n', '  worker:\n    replica_count: 2\n'));
    const refused = await load(broken);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /replica_count/);
  });
});
