// A broker as a Node.js team would write one: grpc-js with the service definitions loaded from
// proto/ at run time (proto-loader), no Java anywhere. It registers, reports health, takes a
// snapshot, watches while namespaces are written over HTTP, resumes a watch from a version, and
// provokes the documented error codes. The last line of its output is a JSON report that
// NodeGrpcBrokerIT checks.
//
// node broker.mjs <grpc host:port> <http base> <broker token> <operator token> <tenant> <broker id> <proto dir>
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const [grpcAddr, httpBase, brokerToken, operatorToken, tenant, brokerId, protoDir] =
  process.argv.slice(2);

const definition = protoLoader.loadSync(
  ['controlplane/v1/metadata_service.proto', 'controlplane/v1/broker_service.proto'],
  // keepCase: fields as proto/ spells them (broker_id), not camelCased (brokerId).
  { includeDirs: [protoDir], keepCase: true, longs: String, enums: String, defaults: true,
    oneofs: true });
const v1 = grpc.loadPackageDefinition(definition).controlplane.v1;
const insecure = grpc.credentials.createInsecure();
const metadataService = new v1.MetadataService(grpcAddr, insecure);
const brokerService = new v1.BrokerService(grpcAddr, insecure);

function credential(token = brokerToken) {
  const md = new grpc.Metadata();
  md.set('authorization', 'Bearer ' + token);
  return md;
}

function unary(client, method, request, md = credential()) {
  return new Promise((resolve) =>
    client[method](request, md, (err, response) =>
      resolve(err ? { code: grpc.status[err.code], details: err.details } : { ok: response })));
}

function snapshot(version, md = credential()) {
  return new Promise((resolve) => {
    const chunks = [];
    const call = metadataService.GetSnapshot({ version: String(version) }, md);
    call.on('data', (chunk) => chunks.push(chunk));
    call.on('error', (err) => resolve({ code: grpc.status[err.code], details: err.details }));
    call.on('end', () => resolve({ chunks }));
  });
}

/** Watches from {@code from} until {@code done(updates)} says so; then cancels. */
function watch(from, done, timeoutMs = 20000) {
  return new Promise((resolve) => {
    const updates = [];
    const call = metadataService.WatchUpdates({ from_version: String(from) }, credential());
    const timer = setTimeout(() => {
      call.cancel();
      resolve({ updates, timedOut: true });
    }, timeoutMs);
    call.on('data', (update) => {
      updates.push(update);
      if (done(updates)) {
        clearTimeout(timer);
        call.cancel();
        resolve({ updates });
      }
    });
    call.on('error', (err) => {
      clearTimeout(timer);
      if (err.code !== grpc.status.CANCELLED) {
        resolve({ updates, code: grpc.status[err.code], details: err.details });
      }
    });
  });
}

async function putNamespace(name) {
  const body = {
    apiVersion: 'controlplane/v1', kind: 'Namespace',
    metadata: { name, tenant }, spec: { description: 'written while a Node broker watches' },
  };
  const response = await fetch(`${httpBase}/v1/tenants/${tenant}/namespaces/${name}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + operatorToken },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status !== 201) {
    throw new Error(`PUT ${name}: ${response.status} ${JSON.stringify(json)}`);
  }
  return BigInt(json.metadata.version);
}

/** Changes only: progress notices have no payload. */
const changes = (updates) => updates.filter((u) => u.payload);
const summary = (u) => ({ version: u.version, type: u.type, payload: u.payload,
  name: u.payload ? u[u.payload].name : null });

const report = {};

report.register = await unary(brokerService, 'RegisterBroker', {
  broker_id: brokerId,
  address: '127.0.0.1:9092',
  capacity: { max_shards: 100 },
  metadata: { region: 'eu-west-1', availability_zone: 'eu-west-1a', rack: 'r7' },
});
report.health = await unary(brokerService, 'ReportHealth', {
  broker_id: brokerId,
  status: { healthy: true, message: 'ok', uptime_seconds: 5 },
  metrics: { cpu_usage: 0.25, active_connections: 3 },
});

const snap = await snapshot(0);
const chunks = snap.chunks ?? [];
const version = chunks.length ? BigInt(chunks[0].version) : 0n;
report.snapshot = {
  error: snap.code ?? null,
  chunks: chunks.length,
  lastMarked: chunks.length > 0 && chunks[chunks.length - 1].last === true,
  sameVersion: chunks.every((c) => BigInt(c.version) === version),
  version: version.toString(),
  tenants: chunks.flatMap((c) => c.metadata.tenants.map((t) => t.name)),
  broker: chunks.flatMap((c) => c.metadata.brokers).find((b) => b.name === brokerId) ?? null,
};

// Watch from the snapshot's version while six namespaces are written over HTTP.
const written = [];
const first = watch(version, (updates) =>
  written.length === 6 && changes(updates).some((u) => BigInt(u.version) === written[5]));
for (let i = 1; i <= 6; i++) {
  written.push(await putNamespace(`node-ns-${i}`));
}
const firstWatch = await first;
report.written = written.map(String);
report.watch = {
  timedOut: firstWatch.timedOut ?? false,
  error: firstWatch.code ?? null,
  changes: changes(firstWatch.updates).map(summary),
  progressNotices: firstWatch.updates.length - changes(firstWatch.updates).length,
};

// A broker that lost its connection after the third write resumes from there.
const resumed = await watch(written[2], (updates) =>
  changes(updates).some((u) => BigInt(u.version) === written[5]));
report.resumed = {
  timedOut: resumed.timedOut ?? false,
  error: resumed.code ?? null,
  changes: changes(resumed.updates).map(summary),
};

report.errors = {
  watchAhead: (await watch(version + 1000000n, () => true, 5000)).code ?? 'none',
  snapshotWrongCredential: (await snapshot(0, credential('not-the-broker-secret'))).code ?? 'none',
  snapshotNoCredential: (await snapshot(0, new grpc.Metadata())).code ?? 'none',
  registerAuto: (await unary(brokerService, 'RegisterBroker',
    { broker_id: 'auto', address: '127.0.0.1:9092' })).code ?? 'none',
  healthUnknown: (await unary(brokerService, 'ReportHealth',
    { broker_id: brokerId + '-never-registered', status: { healthy: true } })).code ?? 'none',
};

metadataService.close();
brokerService.close();
console.log(JSON.stringify(report));
