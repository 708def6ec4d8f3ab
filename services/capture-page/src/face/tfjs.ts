// The part of TensorFlow.js the face detector runs on, standing in for the whole '@tensorflow/tfjs'
// that face-api's esm-nobundle build imports (vite.config.ts points it here): the tfjs-core ops
// face-api calls, by name so the others are left out. The backend is WASM (./detector.ts).
// the tensor methods face-api calls (tfjs-core adds none by itself; the whole set is 137 ops)
import '@tensorflow/tfjs-core/dist/public/chained_ops/add';
import '@tensorflow/tfjs-core/dist/public/chained_ops/as1d';
import '@tensorflow/tfjs-core/dist/public/chained_ops/as2d';
import '@tensorflow/tfjs-core/dist/public/chained_ops/as3d';
import '@tensorflow/tfjs-core/dist/public/chained_ops/as4d';
import '@tensorflow/tfjs-core/dist/public/chained_ops/div';
import '@tensorflow/tfjs-core/dist/public/chained_ops/expand_dims';
import '@tensorflow/tfjs-core/dist/public/chained_ops/mul';
import '@tensorflow/tfjs-core/dist/public/chained_ops/reshape';
import '@tensorflow/tfjs-core/dist/public/chained_ops/slice';
import '@tensorflow/tfjs-core/dist/public/chained_ops/sub';
import '@tensorflow/tfjs-core/dist/public/chained_ops/to_int';

export {
  ENV,
  Tensor,
  Variable,
  add,
  avgPool,
  batchNorm,
  browser,
  cast,
  clipByValue,
  concat,
  conv2d,
  depthwiseConv2d,
  div,
  exp,
  expandDims,
  fill,
  image,
  io,
  matMul,
  maxPool,
  mul,
  pad,
  relu,
  reshape,
  scalar,
  separableConv2d,
  sigmoid,
  slice,
  slice3d,
  softmax,
  stack,
  sub,
  tensor,
  tensor1d,
  tensor2d,
  tensor3d,
  tensor4d,
  tidy,
  tile,
  transpose,
  unstack,
  zeros,
} from '@tensorflow/tfjs-core';
