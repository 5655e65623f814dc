// A worker thread of sim/run.ts runClasses: runs its share of the sessions and posts their results.
import { parentPort, workerData } from 'node:worker_threads';
import { runTasks, type WorkerInput } from './run';

parentPort!.postMessage(runTasks(workerData as WorkerInput));
