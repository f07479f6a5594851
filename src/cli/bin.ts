#!/usr/bin/env node
import { createProcessIo } from './io.js';
import { main } from './main.js';

const io = createProcessIo();
const code = await main(process.argv.slice(2), io);
const lost = io.outputError();
if (lost !== undefined && code === 0) {
  io.stderr(`toolcap: the output could not be written (${lost.code ?? lost.message})\n`);
  process.exitCode = 1;
} else {
  process.exitCode = code;
}
