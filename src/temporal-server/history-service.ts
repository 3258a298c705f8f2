import type { ServerEnv } from './env.ts';
import type { CallContext } from './grpc-server.ts';
import { enums, type temporal } from './proto.ts';

type Request = temporal.api.workflowservice.v1.GetWorkflowExecutionHistoryRequest;
type Response = temporal.api.workflowservice.v1.IGetWorkflowExecutionHistoryResponse;

const LONG_POLL_MS = 20_000;
const DEFAULT_PAGE_SIZE = 1000;

interface PageToken {
  runId: string;
  nextEventId: number;
}

function readToken(bytes: Uint8Array | null | undefined): PageToken | undefined {
  if (!bytes?.length) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as PageToken;
  } catch {
    return undefined;
  }
}

function writeToken(token: PageToken): Buffer {
  return Buffer.from(JSON.stringify(token), 'utf8');
}

/**
 * Pages through a run's history. With `waitNewEvent` it long-polls for events past the page token, and
 * with the CLOSE_EVENT filter it waits for the run to close and returns only the close event (this is how
 * the SDK's `handle.result()` waits). A long poll that times out returns no events and a token to resume.
 */
export async function getWorkflowExecutionHistory(
  env: ServerEnv,
  request: Request,
  ctx: CallContext,
): Promise<Response> {
  env.namespaces.get(request.namespace);
  const token = readToken(request.nextPageToken);
  const execution = request.execution;
  const run = env.store.find(
    request.namespace,
    execution?.workflowId ?? '',
    token?.runId || execution?.runId,
  );
  const { history } = run;

  if (request.historyEventFilterType === enums.HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT) {
    if (run.isOpen && request.waitNewEvent) {
      const deadline = Date.now() + LONG_POLL_MS;
      while (run.isOpen && !ctx.cancelled && Date.now() < deadline) {
        await history.waitForChange(deadline - Date.now(), ctx);
      }
    }
    const close = run.closeEvent();
    if (close) return { history: { events: [close] } };
    return {
      history: { events: [] },
      nextPageToken: request.waitNewEvent ? writeToken({ runId: run.runId, nextEventId: 0 }) : null,
    };
  }

  const from = Math.max(1, token?.nextEventId ?? 1);
  if (request.waitNewEvent && run.isOpen && from > history.lastEventId) {
    await history.waitForChange(LONG_POLL_MS, ctx);
  }
  const pageSize = request.maximumPageSize > 0 ? request.maximumPageSize : DEFAULT_PAGE_SIZE;
  const events = history.events.slice(from - 1, from - 1 + pageSize);
  const nextEventId = from + events.length;
  const more = nextEventId <= history.lastEventId || (request.waitNewEvent && run.isOpen);
  return {
    history: { events },
    nextPageToken: more ? writeToken({ runId: run.runId, nextEventId }) : null,
  };
}
