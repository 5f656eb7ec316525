# source: https://github.com/isaac-sim/IsaacLab/pull/2250
# kind: loaded_weights_not_moved
# bug: the "policy inference in a USD scene" tutorial loaded the exported TorchScript locomotion policy with torch.jit.load(file) and no map location, so it stayed on the CPU while the environment (and its observations) ran on the --device given on the command line (cuda:0 by default), giving a device mismatch on the first policy call; the fix loads it with map_location=args_cli.device.
# split: test8
import argparse
import io
import os

import torch

parser = argparse.ArgumentParser(description="Run an exported locomotion policy in a warehouse scene.")
parser.add_argument("--checkpoint", type=str, required=True)
parser.add_argument("--device", type=str, default="cuda:0")
args_cli = parser.parse_args()

from sim_env import WarehouseEnvCfg, make_env  # noqa: E402


def read_bytes(path):
    with open(path, "rb") as f:
        return io.BytesIO(f.read())


def main():
    policy_file = read_bytes(os.path.abspath(args_cli.checkpoint))
    policy = torch.jit.load(policy_file)  # bug: loaded_weights_not_moved

    env_cfg = WarehouseEnvCfg(num_envs=1, device=args_cli.device)
    env_cfg.curriculum = None
    env = make_env(env_cfg)

    obs, _ = env.reset()
    with torch.inference_mode():
        while env.is_running():
            action = policy(obs["policy"])
            obs, _, _, _, _ = env.step(action)
    env.close()


if __name__ == "__main__":
    main()
