// Forces a full garbage collection in the Worker's isolate through wrangler's inspector port, then
// prints its live JS heap in KiB: `node --experimental-websocket gc-isolate.mjs <inspectorPort> <base>`.
// A process of its own because Node 20 has a WebSocket only behind that flag.
import { connectInspector } from '../../scripts/load/worker-process.mjs';

const [inspectorPort, base] = process.argv.slice(2);
const inspector = await connectInspector({ inspectorPort: Number(inspectorPort), base, headers: {} });
console.log(await inspector.liveHeapKib());
inspector.close();
process.exit(0);
