import type { EventFragment, FunctionFragment, JsonFragment, Log, Result } from 'ethers';
import { AbiCoder, concat, Interface } from 'ethers';
import { type ChainRevert, decodeRevert } from './errors.ts';
import type { PassportEvent } from './passport-types.ts';

/**
 * The passport contract's ABI at one address: calls encoded, results, events and custom errors decoded.
 * Fragments are looked up once (ethers re-hashes signatures on every lookup by name or topic).
 */
export class PassportAbi {
  readonly interface: Interface;
  readonly #contractLower: string;
  readonly #functions = new Map<string, { fragment: FunctionFragment; selector: string }>();
  readonly #eventsByTopic = new Map<string, EventFragment>();

  constructor(abi: readonly unknown[], contractAddress: string) {
    this.interface = new Interface(abi as JsonFragment[]);
    this.#contractLower = contractAddress.toLowerCase();
    this.interface.forEachEvent((fragment) => {
      if (!fragment.anonymous) this.#eventsByTopic.set(fragment.topicHash, fragment);
    });
  }

  /** `encodeFunctionData`, with the fragment for decoding the result. */
  encode(method: string, args: readonly unknown[]): { fragment: FunctionFragment; data: string } {
    let known = this.#functions.get(method);
    if (!known) {
      const fragment = this.interface.getFunction(method);
      if (!fragment) throw new TypeError(`the passport contract has no function ${method}`);
      known = { fragment, selector: fragment.selector };
      this.#functions.set(method, known);
    }
    return {
      fragment: known.fragment,
      data: concat([known.selector, AbiCoder.defaultAbiCoder().encode(known.fragment.inputs, args)]),
    };
  }

  decodeResult(fragment: FunctionFragment, data: string): Result {
    return this.interface.decodeFunctionResult(fragment, data);
  }

  /** The contract's custom error behind a failed call or send, if that is what it is. */
  revert(error: unknown, txHash?: string): ChainRevert | undefined {
    return decodeRevert(this.interface, error, txHash);
  }

  /** The contract's events among `logs` (other contracts' logs are skipped), in log order. */
  events(logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[]): PassportEvent[] {
    const events: PassportEvent[] = [];
    for (const log of logs) {
      // ethers hands out checksummed addresses; comparing case-insensitively spares a keccak per log.
      if (log.address.toLowerCase() !== this.#contractLower) continue;
      const fragment = log.topics[0] && this.#eventsByTopic.get(log.topics[0].toLowerCase());
      if (!fragment) continue;
      const args = this.interface.decodeEventLog(fragment, log.data, log.topics);
      events.push({
        name: fragment.name,
        args: Object.fromEntries(fragment.inputs.map((input, i) => [input.name, args[i]])),
      });
    }
    return events;
  }
}
