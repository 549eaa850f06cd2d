#!/usr/bin/env node
import { main } from "./main.js";

// A reader that stops early (`debate --help | head`) closes the pipe: that is no error of ours.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });

process.exitCode = await main(process.argv);
