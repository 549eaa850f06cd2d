// A queue worker in a process of its own for `bench tournament`'s overhead runs, with the instant
// model server its seats call: its CPU by part is then its own, apart from the enqueuer's. Prints
// one JSON line for the model server's URL, then one per finished job (with its CPU by part).
// Usage: node queue-worker.js <redis-url>; SIGTERM stops it.
import { crossfireAnswer, startModelServer } from "@debatekit/model-server";
import { startWorker } from "@debatekit/tournament";

const seats = await startModelServer(crossfireAnswer);
const worker = await startWorker(process.argv[2]!, {
  // The http seats of this process's model server, and nothing else.
  seats: { adapters: ["http"], endpoints: [seats.url] },
  onEvent: (event) => {
    if (event.type === "job_finished") console.log(JSON.stringify(event));
  },
});
console.log(JSON.stringify({ type: "ready", seats: seats.url }));
process.once("SIGTERM", async () => {
  await worker.close();
  await seats.close();
  process.exit(0);
});
