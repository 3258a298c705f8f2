import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

const { EventType } = proto.temporal.api.enums.v1;

type Timestamp = proto.google.protobuf.ITimestamp | null | undefined;

function toMs(time: Timestamp): number {
  const seconds = time?.seconds;
  const whole = typeof seconds === 'number' ? seconds : (seconds?.toNumber() ?? 0);
  return whole * 1000 + (time?.nanos ?? 0) / 1e6;
}

/**
 * Where the wall time of mint workflows went, from their histories: p50 / p90 in ms of each stretch. A queue
 * stretch is a task waiting for a worker slot or poller; the first workflow task includes the prepareMint
 * local activity, the second recordMint; the chain write's stretch includes its queueing (the server writes
 * ActivityTaskStarted only with the outcome).
 */
export async function mintStepTimeline(client: Client, workflowIds: string[]): Promise<string> {
  const stretches: Record<string, number[]> = {};
  for (const workflowId of workflowIds) {
    const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const at = (type: number, occurrence = 1) =>
      toMs(events.filter((event) => event.eventType === type)[occurrence - 1]?.eventTime);
    const add = (name: string, from: number, to: number) => {
      if (from <= 0 || to <= 0) return;
      stretches[name] ??= [];
      stretches[name].push(to - from);
    };
    add(
      '1st task queued',
      at(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED),
      at(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED),
    );
    add(
      '1st task (prepareMint)',
      at(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED),
      at(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
    );
    add(
      'chain write',
      at(EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
      at(EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED),
    );
    add(
      '2nd task (recordMint)',
      at(EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, 2),
      at(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, 2),
    );
    add(
      'whole workflow',
      at(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED),
      at(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED),
    );
  }
  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
  return Object.entries(stretches)
    .map(([name, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return `${name} ${percentile(sorted, 0.5).toFixed(0)}/${percentile(sorted, 0.9).toFixed(0)}`;
    })
    .join(', ');
}
