// The service ranks a refresh's answers as it likes (service notes): the person asked for by their profile slug may
// come after someone else. A real HTTP proxy in front of the simulator puts another person first in every answer to a
// refresh's slug queries; each refreshed row must still name the person it chose, in its record and its `people` row.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import type { Simulator } from '../../../electron/simulator';
import { connect, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';
import { HEADERS, chosenPeople, truthSheet } from './refresh-fixture';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let proxy: Server;
let engine: Engine;
/** Answers the proxy gave someone else ahead of the person asked for. */
let reordered = 0;

/** Whether a find request asks by profile slug alone (a refresh's queries). */
function slugQueries(body: string): boolean {
  const queries = (JSON.parse(body) as { matches?: { fields: { field_name: string }[] }[] }).matches ?? [];
  return queries.length > 1 && queries.every(({ fields }) => fields.length === 1 && fields[0]!.field_name === 'social');
}

/** Each answer of a reply (an array of answers, each an array of people) led by the next answer's first person. */
function withOthersFirst(reply: unknown[][]): unknown[][] {
  return reply.map((people, i) => {
    const other = reply[(i + 1) % reply.length]![0];
    if (other === undefined || people.length === 0) return people;
    reordered++;
    return [other, ...people];
  });
}

beforeAll(async () => {
  tmp = tempDir('matchdesk-refresh-order-');
  sim = await startSim({ people: 3000, seed: 4 });
  const target = new URL(sim.baseUrl);
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const reorder = req.method === 'POST' && /\/find$/.test(req.url ?? '') && slugQueries(body);
      const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, 'content-length': Buffer.byteLength(body) } }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          let text = Buffer.concat(parts).toString('utf8');
          if (reorder && answer.statusCode === 200) text = JSON.stringify(withOthersFirst(JSON.parse(text) as unknown[][]));
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(text);
        });
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, { ...sim, baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await engine?.close();
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await sim?.close();
  tmp?.remove();
});

describe('a refresh whose answers put someone else first', () => {
  it('gives each row the person it chose, found wherever the service ranked them', async () => {
    const sheet = truthSheet(sim.dataset.people, { still: 60, moved: 60, left: 30, again: 10, near_name: 10, nobody: 5 });
    const detail = await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'people.csv'), HEADERS, sheet.map((r) => r.cells)) });
    const projectId = detail.summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
    expect((await runToEnd(engine, projectId)).status).toBe('done');
    expect(reordered).toBe(0);
    const before = chosenPeople(engine.dbPath, projectId);
    const matched = [...before].filter(([, chosen]) => chosen !== null);
    expect(matched.length).toBeGreaterThan(100);

    sim.moveOn({ share: 0.35, seed: 11 });
    await ok(engine, 'refresh.start', { projectId });
    const end = (await engine.refreshSettled(projectId))!;
    expect(end).toMatchObject({ status: 'done', failed: 0 });
    expect(reordered).toBeGreaterThan(50);

    // The record each row now shows (read through its `people` row) is the person it chose, brought up to date.
    const after = chosenPeople(engine.dbPath, projectId);
    const wrong = matched.filter(([row, was]) => {
      const is = after.get(row);
      return !is || is.summary.id !== was!.summary.id || is.summary.social !== was!.summary.social;
    });
    expect(wrong.map(([row]) => row)).toEqual([]);
    expect(end.rowsChanged).toBeGreaterThan(0);
  });
});
