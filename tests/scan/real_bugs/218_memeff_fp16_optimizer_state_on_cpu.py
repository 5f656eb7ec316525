# source: https://github.com/facebookresearch/ParlAI/pull/2512
# kind: loaded_weights_not_moved
# bug: the memory-efficient fp16 optimizer wrapper restored the fp32 optimizer state by putting the original, CPU-loaded state tensors from the checkpoint back into `optimizer.state` after `load_state_dict` (bypassing its device cast), so resuming a GPU run with `--fp16-impl mem_eff` mixed CPU state with CUDA parameters in the first step; the fix moves each restored state tensor to its parameter's device.
# split: test9
import torch


class MemoryEfficientFP16Optimizer(torch.optim.Optimizer):
    def __init__(self, init_optimizer, loss_initial_scale=2.0 ** 17):
        self.optimizer = init_optimizer
        self.scaler_loss_scale = loss_initial_scale

    @property
    def param_groups(self):
        return self.optimizer.param_groups

    @property
    def state(self):
        return self.optimizer.state

    def state_dict(self):
        state_dict = self.optimizer.state_dict()
        state_dict["loss_scaler"] = self.scaler_loss_scale
        return state_dict

    def load_state_dict(self, state_dict):
        if "loss_scaler" in state_dict:
            self.scaler_loss_scale = state_dict["loss_scaler"]
        self.optimizer.load_state_dict(state_dict)
        # the base load casts fp32 state to the fp16 params: put the original fp32 state back
        groups = self.optimizer.param_groups
        saved_groups = state_dict["param_groups"]
        id_map = {
            old_id: p
            for old_id, p in zip(
                (i for g in saved_groups for i in g["params"]),
                (p for g in groups for p in g["params"]),
            )
        }
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                self.optimizer.state[param] = v  # bug: loaded_weights_not_moved

    def step(self, closure=None):
        self.optimizer.step(closure)


def resume(agent, path):
    states = torch.load(path, map_location=lambda cpu, _: cpu)
    agent.model.load_state_dict(states["model"])
    agent.optimizer.load_state_dict(states["optimizer"])
