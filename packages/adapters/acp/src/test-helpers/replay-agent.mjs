#!/usr/bin/env node
// An ACP agent that replays what a real agent wrote in a recorded run (a fixture of
// ../../fixtures/<agent>/, path in REPLAY_FIXTURE): the adapter under test meets the real
// agent's messages, byte for byte, without the agent or its model. The adapter numbers its
// requests 0, 1, 2... in a fixed order, so the recorded answers carry the ids it will use: on
// each request we write the recorded lines up to and including the answer with that id. A
// request the recording never answered (a hang) gets the remaining lines and then silence.
import { readFileSync } from "node:fs";

const fixture = JSON.parse(readFileSync(process.env.REPLAY_FIXTURE, "utf8"));
const lines = fixture.agentStdout;
let next = 0;
if (fixture.agentStderr) process.stderr.write(fixture.agentStderr);

function answers(line, id) {
  try {
    const message = JSON.parse(line);
    return message.id === id && message.method === undefined;
  } catch {
    return false;
  }
}

function replayUpTo(id) {
  while (next < lines.length) {
    const line = lines[next++];
    process.stdout.write(`${line}\n`);
    if (answers(line, id)) return;
  }
}

let buffer = "";
process.stdin.on("data", (data) => {
  buffer += data;
  let i = buffer.indexOf("\n");
  while (i >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    i = buffer.indexOf("\n");
    if (!line.trim()) continue;
    const message = JSON.parse(line);
    // Our answers to the agent's own requests (permissions) need nothing back.
    if (message.method !== undefined && message.id !== undefined) replayUpTo(message.id);
  }
});
