// Two clients generated from openapi/controlplane.yaml (typescript-fetch) edit one namespace.
// The generated model drops the read-only metadata.version from request bodies, so the body alone
// cannot carry the precondition; HTTP's ETag / If-Match does. Prints one JSON line of what the
// server answered; GeneratedTypeScriptClientIT checks it.
import { Configuration, Namespace, NamespacesApi, ResponseError } from "./client";

declare const process: { argv: string[]; exitCode: number };

const [basePath, token, tenant] = process.argv.slice(2);
const api = new NamespacesApi(new Configuration({ basePath, accessToken: token }));
const name = "shared-ns";

function document(description: string): Namespace {
  return {
    apiVersion: "controlplane/v1",
    kind: "Namespace",
    metadata: { name, tenant },
    spec: { description },
  } as Namespace;
}

async function statusOf(call: Promise<unknown>): Promise<{ status: number; code?: string }> {
  try {
    await call;
    return { status: 200 };
  } catch (e) {
    if (e instanceof ResponseError) {
      const problem = await e.response.json();
      return { status: e.response.status, code: problem.code };
    }
    throw e;
  }
}

async function main(): Promise<void> {
  const created = await api.putNamespaceRaw({ tenant, namespace: name, namespace2: document("first") });
  const createdEtag = created.raw.headers.get("ETag");

  // Alice and Bob both read the namespace.
  const alice = await api.getNamespaceRaw({ tenant, namespace: name });
  const aliceEtag = alice.raw.headers.get("ETag");
  const bob = await api.getNamespaceRaw({ tenant, namespace: name });
  const bobEtag = bob.raw.headers.get("ETag");

  // Bob writes first, conditionally: it succeeds and answers the new tag.
  const bobWrite = await api.putNamespaceRaw({
    tenant, namespace: name, namespace2: document("bob"), ifMatch: bobEtag,
  });
  const bobWriteEtag = bobWrite.raw.headers.get("ETag");

  // Alice writes with her now stale tag: refused, Bob's change kept.
  const aliceWrite = await statusOf(
    api.putNamespace({ tenant, namespace: name, namespace2: document("alice"), ifMatch: aliceEtag }));
  const afterAlice = await api.getNamespaceRaw({ tenant, namespace: name });
  const afterAliceDescription = (await afterAlice.value()).spec?.description;

  // A stale delete is refused too; a current one succeeds.
  const staleDelete = await statusOf(api.deleteNamespace({ tenant, namespace: name, ifMatch: aliceEtag }));
  const currentDelete = await statusOf(
    api.deleteNamespace({ tenant, namespace: name, ifMatch: afterAlice.raw.headers.get("ETag") }));

  console.log(JSON.stringify({
    createdStatus: created.raw.status,
    createdEtag,
    aliceEtag,
    bobWriteStatus: bobWrite.raw.status,
    bobWriteEtag,
    aliceWrite,
    afterAliceDescription,
    staleDelete,
    currentDelete,
  }));
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
