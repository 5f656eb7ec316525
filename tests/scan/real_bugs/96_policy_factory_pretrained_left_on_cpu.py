# source: https://github.com/huggingface/lerobot/pull/126
# also: https://github.com/huggingface/lerobot/commit/c1668924ab9e3d7f7a15e41e1c604aa2355b9175
# kind: loaded_weights_not_moved
# bug: the policy factory moved a freshly built policy to the configured device, but a policy loaded with from_pretrained was returned on the CPU; the eval script sends observations to the policy's parameter device, so pretrained policies were silently evaluated on the CPU despite device=cuda. The fix moves the policy after either branch.
# split: test2
import torch

from robokit.policies import ACTConfig, ACTPolicy


def safe_device(name: str) -> torch.device:
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError("CUDA requested but not available")
    return torch.device(name)


def make_policy(cfg, pretrained_path=None, stats=None):
    if (pretrained_path is None) == (stats is None):
        raise ValueError("give exactly one of pretrained_path / stats")
    if pretrained_path is None:
        policy = ACTPolicy(ACTConfig(**cfg.policy), stats)
        policy.to(safe_device(cfg.device))
    else:
        policy = ACTPolicy.from_pretrained(pretrained_path)  # bug: loaded_weights_not_moved
    return policy


@torch.no_grad()
def rollout(env, cfg, pretrained_path):
    safe_device(cfg.device)
    policy = make_policy(cfg, pretrained_path=pretrained_path)
    policy.eval()
    device = next(policy.parameters()).device
    obs, done, total = env.reset(), False, 0.0
    while not done:
        batch = {k: torch.as_tensor(v, device=device).unsqueeze(0) for k, v in obs.items()}
        action = policy.select_action(batch)
        obs, reward, done, _ = env.step(action.squeeze(0).cpu().numpy())
        total += reward
    return total
