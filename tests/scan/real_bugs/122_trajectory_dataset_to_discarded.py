# source: https://github.com/jbloomAus/DecisionTransformerInterpretability/pull/5
# also: https://github.com/jbloomAus/DecisionTransformerInterpretability/commit/b4a4d87ad8f823217d4da0452911a903a936c789
# kind: to_result_discarded
# bug: the offline trajectory dataset's __getitem__ called `s.to(dtype=..., device=self.device)` (and the same for actions, rewards and returns-to-go) without assigning the results, so `--cuda` runs fed CPU tensors to the CUDA decision transformer; the merged PR assigns each `.to(...)` result (and makes `--cuda` a real flag).
# split: test3
import torch as t
from torch.utils.data import Dataset


class TrajectoryDataset(Dataset):
    def __init__(self, states, actions, rewards, rtgs, timesteps, max_len=20, device="cpu"):
        self.states, self.actions, self.rewards = states, actions, rewards
        self.rtgs, self.timesteps = rtgs, timesteps
        self.max_len = max_len
        self.device = device

    def __len__(self):
        return len(self.states)

    def __getitem__(self, idx):
        s = self.states[idx][-self.max_len:]
        a = self.actions[idx][-self.max_len:]
        r = self.rewards[idx][-self.max_len:]
        rtg = self.rtgs[idx][-self.max_len:]
        ts = self.timesteps[idx][-self.max_len:]
        s.to(dtype=t.float32, device=self.device)  # bug: to_result_discarded
        a.to(dtype=t.long, device=self.device)  # bug: to_result_discarded
        r.to(dtype=t.float32, device=self.device)  # bug: to_result_discarded
        rtg.to(dtype=t.float32, device=self.device)  # bug: to_result_discarded
        ts = ts.to(self.device)
        return s, a, r, rtg, ts
