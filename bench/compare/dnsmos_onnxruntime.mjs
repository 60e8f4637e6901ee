// ONNX Runtime's side of the DNSMOS comparison: the official networks on one intra-op and one inter-op
// thread, graph optimization "all", each run on a 9.01 s window of the same 440 Hz tone aeval_bench_dnsmos
// uses (a dense network's time does not depend on its input). Prints "name<TAB>milliseconds", the median
// of 15 runs after 3 warm-up runs, as aeval_bench_dnsmos does.
//   node dnsmos_onnxruntime.mjs MODELS_DIR      (onnxruntime-node installed beside this file)
import ort from 'onnxruntime-node';

const models = process.argv[2];
const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential' };

const windowSamples = 144160;
const tone = new Float32Array(windowSamples).map((_, i) => 0.3 * Math.sin(2 * Math.PI * 440 * i / 16000));

async function median(session, feeds) {
  for (let i = 0; i < 3; ++i) await session.run(feeds);
  const times = [];
  for (let i = 0; i < 15; ++i) {
    const start = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

for (const [name, file, dims, data] of [
  ['p835_network_per_window', 'sig_bak_ovr.onnx', [1, windowSamples], tone],
  ['p835_personalized_network_per_window', 'psig_bak_ovr.onnx', [1, windowSamples], tone],
  // The P.808 network reads 900 frames of 120 log-mel bands; values in the range the features take.
  ['p808_network_per_window', 'model_v8.onnx', [1, 900, 120], new Float32Array(900 * 120).map((_, i) => -4 + (i % 97) / 20)],
]) {
  const session = await ort.InferenceSession.create(`${models}/${file}`, options);
  const ms = await median(session, { [session.inputNames[0]]: new ort.Tensor('float32', data, dims) });
  console.log(`${name}\t${ms.toFixed(2)}`);
}
