# source: https://github.com/Farama-Foundation/Gymnasium/pull/1107
# also: https://github.com/Farama-Foundation/Gymnasium/commit/afe6763e2a5178684d18d87ab167a0c837055f8c
# kind: other
# bug: the numpy-to-torch environment wrapper converted observations with a `device` argument, but the branch for tuples and namedtuples recursed into `numpy_to_torch(v)` without passing `device` on, so every element of a tuple observation landed on the CPU while the wrapper promised the requested (CUDA) device (#1106); the fix forwards `device` in the recursive calls.
# split: test12
import functools
import numbers
from collections import abc

import numpy as np
import torch


@functools.singledispatch
def numpy_to_torch(value, device=None):
    raise TypeError(f"no conversion for {type(value)}")


@numpy_to_torch.register(numbers.Number)
def _number_to_torch(value, device=None):
    return torch.tensor(value, device=device)


@numpy_to_torch.register(np.ndarray)
def _array_to_torch(value, device=None):
    tensor = torch.from_numpy(value)
    if device:
        return tensor.to(device=device)
    return tensor


@numpy_to_torch.register(abc.Mapping)
def _mapping_to_torch(value, device=None):
    return type(value)(**{k: numpy_to_torch(v, device) for k, v in value.items()})


@numpy_to_torch.register(abc.Iterable)
def _iterable_to_torch(value, device=None):
    if hasattr(value, "_make"):
        return type(value)._make(numpy_to_torch(v) for v in value)  # bug: other
    return type(value)(numpy_to_torch(v, device) for v in value)


class TorchObservations:
    def __init__(self, env, device="cuda"):
        self.env = env
        self.device = torch.device(device)

    def reset(self, seed=None):
        obs, info = self.env.reset(seed=seed)
        return numpy_to_torch(obs, self.device), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action.cpu().numpy())
        return (
            numpy_to_torch(obs, self.device),
            float(reward),
            bool(terminated),
            bool(truncated),
            info,
        )


def rollout(env, policy, steps=100):
    wrapped = TorchObservations(env, device="cuda")
    obs, _ = wrapped.reset(seed=0)
    total = 0.0
    for _ in range(steps):
        action = policy(obs.image, obs.proprio)
        obs, reward, done, truncated, _ = wrapped.step(action)
        total += reward
        if done or truncated:
            obs, _ = wrapped.reset()
    return total
