import torch


def evaluate(policy, envs, procs, device, episodes=10):
    obs = envs.reset()
    masks = torch.zeros(procs, 1, device=device)
    returns = []
    while len(returns) < episodes:
        with torch.no_grad():
            action = policy.act(obs, masks)
        obs, reward, done, infos = envs.step(action)
        masks = torch.FloatTensor([[0.0] if d else [1.0] for d in done])  # expect: code.tensor_created_without_device
        returns.extend(float(r) for r in reward)
    return sum(returns) / len(returns)
