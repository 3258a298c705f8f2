import {
  Contract,
  getBytes,
  type JsonFragment,
  JsonRpcProvider,
  type TransactionReceipt,
  Wallet,
} from 'ethers';
import { startAnvil } from '../src/adapters/chain/anvil.ts';
import { chipHash } from '../src/adapters/chain/chip-hash.ts';
import { loadPassportArtifact } from '../src/adapters/chain/compile.ts';
import { deployPassport } from '../src/adapters/chain/deployment.ts';
import { computeCid } from '../src/standards/ipfs/cid.ts';
import { ipfsUrl } from '../src/standards/ipfs/json.ts';
import { sized } from './quick.ts';
import { atMost, collected, recordFigure } from './report/figures.ts';

const SIZES = [1, 10, 100];
/** Single mints averaged (one in five opens a new index slot). */
const SINGLES = sized(10, 5);
const DEPOSIT = 10n ** 16n;
/** EIP-2200/2929: a zero slot set to non-zero, cold. */
const CHIP_SLOT = 22_100;
const BASE_URI = 'https://dpp.example.com/tokens/';

interface Breakdown {
  total: number;
  base: number;
  calldata: number;
  chipSlots: number;
  events: number;
  record: number;
  rest: number;
}

/**
 * `npm run bench -- gas`: exact gas of minting on a freshly deployed passport contract on anvil (transactions sent
 * straight to the contract, one block each): gas per passport of `mintBatch` (a record with a URI and an index
 * entry per passport) and of `mintRange` (consecutive ids, one ERC-2309 event, base URI) for 1, 10 and 100
 * passports, ÷ one `mintWithId` in the steady state (the owner already holds passports), and where the gas goes.
 */
export async function benchGas(): Promise<void> {
  const anvil = await startAnvil();
  const provider = new JsonRpcProvider(anvil.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const platform = new Wallet(anvil.accounts[0]!.privateKey, provider);
    const owner = anvil.accounts[1]!.address;
    const { address } = await deployPassport(platform, { admin: platform.address, minter: platform.address });
    const contract = new Contract(address, loadPassportArtifact().abi as JsonFragment[], platform);
    let nextId = 1n;
    let nextChip = 0;
    const chip = () => chipHash(`04CD${(nextChip++).toString(16).toUpperCase().padStart(10, '0')}`);
    // a real metadata URL: ipfs:// and a CIDv1 of 59 characters
    const uri = (id: bigint) => ipfsUrl(computeCid(new TextEncoder().encode(`passport ${id}`)));
    const send = async (method: string, args: unknown[], value: bigint, passports: number) => {
      const response = await contract.getFunction(method).send(...args, { value });
      const receipt = (await response.wait()) as TransactionReceipt;
      if (receipt.status !== 1) throw new Error(`${method} reverted`);
      return breakdown(provider, response.data, receipt, passports);
    };
    const single = async () => {
      const id = nextId++;
      return send('mintWithId', [owner, id, uri(id), chip()], DEPOSIT, 1);
    };
    await single(); // the owner's balance and the counters exist from here on, as in a running service
    const singles: Breakdown[] = [];
    for (let i = 0; i < SINGLES; i++) singles.push(await single());
    const singleGas = mean(singles.map((b) => b.total));

    const rows: { path: string; size: number; perPassport: Breakdown }[] = [];
    for (const size of SIZES) {
      const ids = Array.from({ length: size }, () => nextId++);
      const orders = ids.map((id) => [owner, id, uri(id), chip(), DEPOSIT]);
      rows.push({
        path: 'mintBatch',
        size,
        perPassport: per(await send('mintBatch', [orders], DEPOSIT * BigInt(size), size), size),
      });
    }
    for (const size of SIZES) {
      const first = nextId;
      nextId += BigInt(size);
      const chips = Array.from({ length: size }, chip);
      const gas = await send(
        'mintRange',
        [owner, first, chips, DEPOSIT, BASE_URI],
        DEPOSIT * BigInt(size),
        size,
      );
      rows.push({ path: 'mintRange', size, perPassport: per(gas, size) });
    }

    console.log(
      `\ngas (anvil, fresh contract): one mintWithId (steady state, mean of ${SINGLES}) ${singleGas.toFixed(0)}`,
    );
    console.log(
      'gas per passport: total (÷ single)  = base tx + calldata + chip slot + events + record code + rest',
    );
    for (const { path, size, perPassport: b } of rows) {
      const parts = [b.base, b.calldata, b.chipSlots, b.events, b.record, b.rest].map((n) =>
        n.toFixed(0).padStart(6),
      );
      console.log(
        `  ${path.padEnd(9)} ${String(size).padStart(3)}  ${b.total.toFixed(0).padStart(6)} (${(b.total / singleGas).toFixed(3)}) = ${parts.join(' +')}`,
      );
    }
    console.log(
      '  (rest: index/range entries, counters and balance slots, reads of the chip slots, the loop and memory)',
    );
    const range100 = rows.find((row) => row.path === 'mintRange' && row.size === 100)!.perPassport;
    recordFigure({
      bench: 'gas',
      name: 'gas per passport in a mintRange of 100 ÷ a single mint (anvil, exact)',
      ours: range100.total,
      baseline: singleGas,
      unit: 'gas',
      ...atMost(0.2),
    });
    collected.tables.push({
      title: 'Gas per passport (anvil, exact; single mint = 1)',
      rows: rows.map(({ path, size, perPassport: b }) => [
        `${path} of ${size}`,
        `${b.total.toFixed(0)} (${(b.total / singleGas).toFixed(3)}): calldata ${b.calldata.toFixed(0)}, chip slot ${b.chipSlots.toFixed(0)}, events ${b.events.toFixed(0)}, record ${b.record.toFixed(0)}, base ${b.base.toFixed(0)}, rest ${b.rest.toFixed(0)}`,
      ]),
    });
  } finally {
    provider.destroy();
    await anvil.stop();
  }
}

/** Splits a mint transaction's gas: what its data, chip slots, logs and record code cost, and the rest. */
async function breakdown(
  provider: JsonRpcProvider,
  data: string,
  receipt: TransactionReceipt,
  passports: number,
): Promise<Breakdown> {
  const total = Number(receipt.gasUsed);
  const calldata = getBytes(data).reduce((sum, byte) => sum + (byte === 0 ? 4 : 16), 0);
  const events = receipt.logs.reduce(
    (sum, log) => sum + 375 + 375 * log.topics.length + 8 * getBytes(log.data).length,
    0,
  );
  const chipSlots = CHIP_SLOT * passports;
  // the record: CREATE, its init code's words (EIP-3860) and 200 gas a byte of the code it leaves
  const trace = (await provider.send('debug_traceTransaction', [
    receipt.hash,
    { tracer: 'callTracer' },
  ])) as Call;
  const record = creates(trace).reduce(
    (sum, call) =>
      sum +
      32_000 +
      2 * Math.ceil(getBytes(call.input).length / 32) +
      200 * getBytes(call.output ?? '0x').length,
    0,
  );
  const base = 21_000;
  return {
    total,
    base,
    calldata,
    chipSlots,
    events,
    record,
    rest: total - base - calldata - chipSlots - events - record,
  };
}

interface Call {
  type: string;
  input: string;
  output?: string;
  calls?: Call[];
}

function creates(call: Call): Call[] {
  const inner = (call.calls ?? []).flatMap(creates);
  return call.type === 'CREATE' ? [call, ...inner] : inner;
}

function per(b: Breakdown, passports: number): Breakdown {
  const share = (n: number) => n / passports;
  return {
    total: share(b.total),
    base: share(b.base),
    calldata: share(b.calldata),
    chipSlots: share(b.chipSlots),
    events: share(b.events),
    record: share(b.record),
    rest: share(b.rest),
  };
}

const mean = (values: number[]) => values.reduce((sum, n) => sum + n, 0) / values.length;
