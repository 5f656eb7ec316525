# source: https://github.com/CampusAI/Hamiltonian-Generative-Networks/pull/75
# also: https://github.com/CampusAI/Hamiltonian-Generative-Networks/commit/12a0490b1f0d8421283d9d10fdfd3a0555f4421a
# kind: inputs_not_moved
# bug: when drawing a random rollout from a trained Hamiltonian generative network, get_random_sample() drew the latent with torch.randn(latent_shape) on the CPU and fed it to the transformer network, which lives on the configured GPU device like the rest of the model; the fix moves the sampled latent to self.device.
# split: test8
import torch


class RolloutResult:
    def __init__(self, n_steps, device):
        self.device = device
        self.frames = []
        self.states = []

    def add_state(self, q, p):
        self.states.append((q, p))

    def add_frame(self, x):
        self.frames.append(x)


class HamiltonianGenerator:
    def __init__(self, encoder, transformer, hnn, decoder, integrator, device):
        self.device = device
        self.encoder = encoder.to(device)
        self.transformer = transformer.to(device)
        self.hnn = hnn.to(device)
        self.decoder = decoder.to(device)
        self.integrator = integrator

    def sample_rollout(self, n_steps, img_shape=(32, 32)):
        latent_shape = (1, self.encoder.out_channels, img_shape[0], img_shape[1])
        z = torch.randn(latent_shape)  # bug: inputs_not_moved
        result = RolloutResult(n_steps, device=self.device)
        q, p = self.transformer(z)
        result.add_state(q, p)
        result.add_frame(self.decoder(q))
        for _ in range(n_steps - 1):
            q, p = self.integrator.step(q=q, p=p, hnn=self.hnn)
            result.add_state(q, p)
            result.add_frame(self.decoder(q))
        return result
