// The peer of section 2: a bare fastify server in its own process that does what every signed
// HTTP API must (parse the request and its JSON body, verify the RSA-PSS signature of
// timestamp + METHOD + path with the account's public key, node:crypto, every request) and then
// answers a fixed body: no validation, matching, journal or book. The realistic mix against it
// measures what this machine's HTTP + signature floor is, in the same run as the exchange.
// Started by server-cost.ts with the accounts (JSON) as its one argument; says hello (its port)
// over IPC, answers 'cpu' with its CPU time, and ends on 'exit' or when the channel closes.
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { ProvisionedAccount } from '../../src-shared/credentials';
import { CREATE_PATH } from './market';

const accounts = JSON.parse(process.argv[2]!) as ProvisionedAccount[];
const keys = new Map<string, KeyObject>(accounts.map((a) => [a.api_key_id, createPublicKey(a.private_key_pem!)]));

function verified(req: FastifyRequest): boolean {
  const key = keys.get(String(req.headers['svc-access-key'] ?? ''));
  const ts = String(req.headers['svc-access-timestamp'] ?? '');
  const sig = String(req.headers['svc-access-signature'] ?? '');
  if (!key || !ts || !sig) return false;
  const path = req.url.split('?')[0]!;
  return verify('sha256', Buffer.from(`${ts}${req.method}${path}`), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, Buffer.from(sig, 'base64'));
}

const app = Fastify({ logger: false });
const refuse = (reply: FastifyReply) => reply.code(401).send({ error: { code: 'unauthorized' } });
app.post(CREATE_PATH, async (req, reply) => (verified(req) ? reply.code(201).send({ order_id: 'bare-order', status: 'resting' }) : refuse(reply)));
app.delete(`${CREATE_PATH}/:id`, async (req, reply) => (verified(req) ? reply.code(200).send({ reduced_by: '1.00' }) : refuse(reply)));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.on('message', (m) => {
  if (m === 'cpu') process.send!({ cpu: process.cpuUsage() });
  if (m === 'exit') void app.close().then(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
