# source: https://github.com/NVIDIA/Isaac-GR00T/issues/280
# also: https://github.com/NVIDIA/Isaac-GR00T/pull/294
# kind: model_not_moved
# bug: the policy loader moved the pretrained model to its device first and only afterwards, when the configured action horizon differed, built a fresh action head on the CPU, copied the old weights into it and swapped it in, so inference hit CPU weights with CUDA features; the fix moves the model to the device after the head is replaced.
# split: test18
import copy

import torch
import torch.nn as nn


class ActionHead(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.proj = nn.Linear(cfg["feat_dim"], cfg["action_dim"])
        self.horizon_emb = nn.Parameter(torch.zeros(cfg["action_horizon"], cfg["action_dim"]))

    def forward(self, feats):
        step = self.proj(feats).unsqueeze(1)
        return step + self.horizon_emb.unsqueeze(0)


class VisionLanguagePolicy(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(cfg["obs_dim"], cfg["feat_dim"]), nn.GELU())
        self.action_head = ActionHead(cfg)

    def forward(self, obs):
        return self.action_head(self.backbone(obs))


class Policy:
    def __init__(self, ckpt_path, expected_horizon, device="cuda"):
        self.device = torch.device(device)
        self.model = self._load(ckpt_path, expected_horizon)

    def _load(self, ckpt_path, expected_horizon):
        state = torch.load(ckpt_path, map_location="cpu")
        model = VisionLanguagePolicy(state["config"])
        model.load_state_dict(state["weights"])
        model.eval()
        model.to(device=self.device)

        if expected_horizon != model.action_head.cfg["action_horizon"]:
            cfg = copy.deepcopy(model.action_head.cfg)
            cfg["action_horizon"] = expected_horizon
            new_head = ActionHead(cfg)
            kept = {k: v for k, v in model.action_head.state_dict().items() if k != "horizon_emb"}
            new_head.load_state_dict(kept, strict=False)
            model.action_head = new_head  # bug: model_not_moved
        return model

    @torch.no_grad()
    def get_action(self, obs):
        obs = torch.as_tensor(obs, dtype=torch.float32, device=self.device)
        return self.model(obs).cpu().numpy()
