# source: https://github.com/werner-duvaud/muzero-general/pull/190
# also: https://github.com/werner-duvaud/muzero-general/commit/7e6401e8ea6428e943c9963e56b8e0b55fe7ed02
# kind: loaded_weights_not_moved
# bug: the model-diagnosis tool rebuilt the MuZero network (whose sub-networks are wrapped in DataParallel) and loaded the checkpoint weights, but never moved it to the GPU, so on a CUDA machine DataParallel refused to run ("module must have its parameters and buffers on device cuda:0"); the merged fix moves the network to CUDA when available after loading the weights.
# split: test17
import torch
import torch.nn as nn


def mlp(in_dim, hidden, out_dim):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ELU(), nn.Linear(hidden, out_dim))


class MuZeroNetwork(nn.Module):
    def __init__(self, obs_dim, action_space, encoding=16, support=10):
        super().__init__()
        self.action_space = action_space
        self.representation_network = nn.DataParallel(mlp(obs_dim, 64, encoding))
        self.dynamics_network = nn.DataParallel(mlp(encoding + action_space, 64, encoding))
        self.prediction_value_network = nn.DataParallel(mlp(encoding, 64, 2 * support + 1))
        self.prediction_policy_network = nn.DataParallel(mlp(encoding, 64, action_space))

    def set_weights(self, weights):
        self.load_state_dict(weights)

    def initial_inference(self, observation):
        state = self.representation_network(observation.view(observation.shape[0], -1))
        return self.prediction_value_network(state), self.prediction_policy_network(state), state


class MCTS:
    def run(self, model, observation):
        observation = torch.tensor(observation, dtype=torch.float32).unsqueeze(0).to(next(model.parameters()).device)
        with torch.no_grad():
            return model.initial_inference(observation)


class DiagnoseModel:
    def __init__(self, checkpoint, obs_dim, action_space):
        self.model = MuZeroNetwork(obs_dim, action_space)  # bug: loaded_weights_not_moved
        self.model.set_weights(checkpoint["weights"])
        self.model.eval()

    def get_virtual_trajectory_from_obs(self, observation):
        return MCTS().run(self.model, observation)


if __name__ == "__main__":
    trainer_net = MuZeroNetwork(8, 4).to("cuda" if torch.cuda.is_available() else "cpu")
    checkpoint = {"weights": trainer_net.state_dict()}
    diag = DiagnoseModel(checkpoint, 8, 4)
    print(diag.get_virtual_trajectory_from_obs([0.0] * 8))
