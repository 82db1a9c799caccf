"""The DNN models of Table I as job templates, from a documented analytic model (spec asrpt.md §5.2,
[A18]). The paper gives each model's parameter count and mini-batch size, not the per-stage profiles;
everything below is an assumption, recorded in docs/asrpt.md and in the bundled
``instances/asrpt/table1_models.json`` (written by ``python tools/table1_models.py``; a test keeps it
equal to this module's output).

**Layers.** Each model is a list of layers ``(params, forward FLOPs per sample, output activations
per sample)``:

* VGG19 and ResNet152: exact from the architectures (224x224 inputs, 3x3 convolutions with padding,
  bottleneck blocks; biases and batch-norm parameters left out; the projection shortcut of each
  stage's first block counted; pooling folded into the layer before it).
* Inception-V3: 13 blocks (the stem, the eleven mixed modules, two of them reductions, and the
  classifier) with their exact output shapes; the parameter and FLOP totals (23.8 M, 5.7 GFLOPs)
  split over the convolutional blocks in proportion to ``C_out^2`` and ``C_out^2 H W``.
* Transformers (BERT-large, XLNet-large, T5, GPT): identical layers with ``4 d a + 2 d f``
  parameters (attention width ``a``, feed-forward width ``f``), ``2 params + 4 seq a`` forward FLOPs
  per token and ``d`` activations per token; BERT and XLNet add their embedding as a first layer.
  T5 and the GPTs are 3-layer sub-models at sequence length 512, as the paper profiled them.

**Costs.** Forward plus backward is 3x the forward FLOPs at :data:`THROUGHPUT` (one V100-class GPU,
mixed precision, an effective 20 TFLOP/s); parameters and activations are 4-byte values (fp32).

**Configurations** (the paper's pipeline planner [20] is not given, [A17]): for a job of ``q``
GPUs, every stage count ``S`` from the least that fits a stage in a 32 GB GPU (16 bytes per
parameter: weights, gradients, two Adam moments) up to ``min(q, layers, 8)``; layers cut into ``S``
contiguous stages of balanced compute; the ``q`` replicas spread over the stages in proportion to
their compute (at least one each). An iteration trains ``batch x q / S`` samples; each replica of
stage ``s`` takes its ``1/k_s`` share, so ``P_s = 3 F_s B_iter / (k_s R)`` and the boundary after
stage ``s`` carries ``B_iter x activations x 4`` bytes. The configuration kept is the one with the
highest throughput ``B_iter / α̃^min`` (Heavy-Edge on the fewest servers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from .instance import Cluster, Job, Stage
from .online import alpha_tilde

THROUGHPUT = 20e12  #: effective FLOP/s of one GPU
BYTES = 4  #: per parameter and per activation value
MEMORY_BYTES = 32e9  #: one GPU's memory
STATE_BYTES = 16  #: per parameter in training: weights, gradients, two Adam moments
MB = 1e6


@dataclass(frozen=True)
class Layer:
    """One layer of a Table I network: parameters, forward FLOPs and output values per sample."""
    params: float  #: parameters
    flops: float  #: forward FLOPs per sample
    activations: float  #: output values per sample


@dataclass(frozen=True)
class Network:
    """A Table I network: its name, mini-batch size, layers, and a note on how it was built."""
    name: str
    batch: int  #: Table I mini-batch size
    layers: tuple[Layer, ...]
    note: str

    @property
    def params(self) -> float:
        """The network's parameters, summed over its layers."""
        return sum(layer.params for layer in self.layers)


def _vgg19() -> list[Layer]:
    layers, channels, size = [], 3, 224
    plan: list[int | str] = [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M",
                             512, 512, 512, 512, "M", 512, 512, 512, 512, "M"]
    for k, item in enumerate(plan):
        if isinstance(item, str):  # "M": a max-pool, folded into the conv before it
            continue
        weights = 9 * channels * item
        pooled = k + 1 < len(plan) and plan[k + 1] == "M"
        out = size // 2 if pooled else size
        layers.append(Layer(weights, 2.0 * weights * size * size, item * out * out))
        channels, size = item, out
    for fan_in, fan_out in ((512 * 7 * 7, 4096), (4096, 4096), (4096, 1000)):
        layers.append(Layer(fan_in * fan_out, 2.0 * fan_in * fan_out, fan_out))
    return layers


def _resnet152() -> list[Layer]:
    stem = 7 * 7 * 3 * 64
    layers = [Layer(stem, 2.0 * stem * 112 * 112, 64 * 56 * 56)]
    channels = 64
    for blocks, mid, size in ((3, 64, 56), (8, 128, 28), (36, 256, 14), (3, 512, 7)):
        for b in range(blocks):
            weights = channels * mid + 9 * mid * mid + mid * 4 * mid + (channels * 4 * mid if b == 0 else 0)
            layers.append(Layer(weights, 2.0 * weights * size * size, 4 * mid * size * size))
            channels = 4 * mid
    layers.append(Layer(2048 * 1000, 2.0 * 2048 * 1000, 1000))
    return layers


def _inception_v3() -> list[Layer]:
    shapes = [(192, 35), (256, 35), (288, 35), (288, 35), (768, 17), (768, 17), (768, 17), (768, 17), (768, 17),
              (1280, 8), (2048, 8), (2048, 8)]
    fc = 2048 * 1000
    param_weight = [c * c for c, _ in shapes]
    flop_weight = [c * c * s * s for c, s in shapes]
    params, flops = 23.8e6 - fc, 5.7e9 - 2.0 * fc
    layers = [Layer(params * pw / sum(param_weight), flops * fw / sum(flop_weight), c * s * s)
              for (c, s), pw, fw in zip(shapes, param_weight, flop_weight)]
    return layers + [Layer(fc, 2.0 * fc, 1000)]


def _transformer(count: int, d: int, a: int, f: int, seq: int, vocab: int = 0) -> list[Layer]:
    weights = 4 * d * a + 2 * d * f
    layer = Layer(weights, seq * (2.0 * weights + 4.0 * seq * a), seq * d)
    embedding = [Layer(vocab * d, 0.0, seq * d)] if vocab else []
    return embedding + [layer] * count


MODELS: dict[str, Network] = {m.name: m for m in (
    Network("vgg19", 32, tuple(_vgg19()), "ImageNet; 16 convolutions and 3 fully connected layers"),
    Network("resnet152", 4, tuple(_resnet152()), "ImageNet; stem, 50 bottleneck blocks, classifier"),
    Network("inception-v3", 32, tuple(_inception_v3()), "ImageNet; stem, 11 mixed modules, classifier"),
    Network("bert-large", 4, tuple(_transformer(24, 1024, 1024, 4096, 384, 30522)), "SQuAD 2.0, sequence 384"),
    Network("xlnet-large", 4, tuple(_transformer(24, 1024, 1024, 4096, 512, 32000)), "SQuAD 2.0, sequence 512"),
    Network("t5", 8, tuple(_transformer(3, 1024, 16384, 65536, 512)), "T5-11B, 3-layer sub-model, sequence 512"),
    Network("gpt-6.7b", 32, tuple(_transformer(3, 4096, 4096, 16384, 512)), "3-layer sub-model, sequence 512"),
    Network("gpt-13b", 32, tuple(_transformer(3, 5120, 5120, 20480, 512)), "3-layer sub-model, sequence 512"),
    Network("gpt-175b", 16, tuple(_transformer(3, 12288, 12288, 49152, 512)), "3-layer sub-model, sequence 512"),
)}


def _balanced_cuts(costs: list[float], parts: int) -> list[tuple[int, int]]:
    """Contiguous ``parts`` ranges of ``costs`` minimising the largest range sum (dynamic program)."""
    n = len(costs)
    prefix = [0.0]
    for c in costs:
        prefix.append(prefix[-1] + c)
    best = [[math.inf] * (n + 1) for _ in range(parts + 1)]
    cut = [[0] * (n + 1) for _ in range(parts + 1)]
    best[0][0] = 0.0
    for p in range(1, parts + 1):
        for end in range(p, n + 1):
            for start in range(p - 1, end):
                value = max(best[p - 1][start], prefix[end] - prefix[start])
                if value < best[p][end]:
                    best[p][end], cut[p][end] = value, start
    ranges, end = [], n
    for p in range(parts, 0, -1):
        ranges.append((cut[p][end], end))
        end = cut[p][end]
    return ranges[::-1]


def _spread(weights: list[float], total: int) -> list[int]:
    """``total`` replicas over stages, at least one each, the rest in proportion (largest remainder)."""
    extra = total - len(weights)
    share = [extra * w / sum(weights) for w in weights] if sum(weights) > 0 else [0.0] * len(weights)
    counts = [1 + int(s) for s in share]
    order = sorted(range(len(weights)), key=lambda s: (-(share[s] - int(share[s])), s))
    for s in order[:total - sum(counts)]:
        counts[s] += 1
    return counts


def _job(model: Network, ranges: list[tuple[int, int]], replicas: list[int], gpus: int) -> Job:
    batch = model.batch * gpus / len(ranges)
    stages = []
    for s, ((start, end), k) in enumerate(zip(ranges, replicas)):
        layers = model.layers[start:end]
        flops = sum(layer.flops for layer in layers)
        send = batch * layers[-1].activations * BYTES / MB if s < len(ranges) - 1 else 0.0
        stages.append(Stage(3.0 * flops * batch / (k * THROUGHPUT), k,
                            sum(layer.params for layer in layers) * BYTES / MB, send))
    return Job(tuple(stages), model.name)


def _least_stages(model: Network) -> int:
    limit = MEMORY_BYTES / STATE_BYTES
    for parts in range(1, len(model.layers) + 1):
        ranges = _balanced_cuts([layer.params for layer in model.layers], parts)
        if all(sum(layer.params for layer in model.layers[a:b]) <= limit for a, b in ranges):
            return parts
    return len(model.layers)


@cache
def configure(name: str, gpus: int, cluster: Cluster, stages: int | None = None) -> Job:
    """The planner's configuration of model ``name`` on ``gpus`` GPUs (module docstring), or the
    balanced one with exactly ``stages`` stages."""
    model = MODELS[name]
    first = min(_least_stages(model), gpus)
    candidates = []
    counts = [stages] if stages else range(first, max(first, min(gpus, len(model.layers), 8)) + 1)
    for parts in counts:
        ranges = _balanced_cuts([layer.flops for layer in model.layers], parts)
        compute = [sum(layer.flops for layer in model.layers[a:b]) for a, b in ranges]
        job = _job(model, ranges, _spread(compute, gpus), gpus)
        candidates.append((alpha_tilde(job, cluster) * parts, job))  # time per sample, up to batch x gpus
    return min(candidates, key=lambda pair: pair[0])[1]


def table(gpu_counts=(1, 2, 4, 8, 16, 32, 64, 128), cluster: Cluster | None = None) -> dict:
    """Every model's layers and configurations, for ``instances/asrpt/table1_models.json``."""
    cluster = cluster or PAPER_CLUSTER
    return {
        "derivation": "optsched/placement/templates.py (docstring); docs/asrpt.md",
        "cluster": cluster.to_dict(),
        "constants": {"throughput_flops": THROUGHPUT, "bytes_per_value": BYTES, "gpu_memory_bytes": MEMORY_BYTES,
                      "state_bytes_per_param": STATE_BYTES},
        "models": {name: {"batch": m.batch, "params": m.params, "note": m.note,
                          "layers": [[layer.params, layer.flops, layer.activations] for layer in m.layers],
                          "configurations": {str(q): configure(name, q, cluster).to_dict() for q in gpu_counts}}
                   for name, m in MODELS.items()},
    }


#: The simulated cluster of §5.4: 250 servers x 8 GPUs, 10 Gbps NICs, 300 GB/s NVLink.
PAPER_CLUSTER = Cluster(250, 8, 1250.0, 300_000.0)
