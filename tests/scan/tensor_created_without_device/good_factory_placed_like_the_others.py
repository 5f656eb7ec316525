# The same search with every factory on the state's device, and a counter that meets a number only.
import torch


class BeamSearch:
    def __init__(self, decoder, initial_state):
        self.decoder = decoder
        self.state = initial_state
        self.batch = initial_state.shape[0]

    def run(self, beams, steps, start_token=0):
        device = self.state.device
        scores = torch.zeros((beams, self.batch), device=device)
        scores[1:] = -1e9
        tokens = torch.full((beams * self.batch,), start_token, dtype=torch.long, device=device)
        finished = torch.zeros(beams)
        for step in range(steps):
            logits, _ = self.decoder(tokens)
            logits = logits.log_softmax(-1).view(beams, self.batch, -1)
            total = scores.unsqueeze(-1) + logits
            scores, tokens = total.flatten(1).topk(beams, dim=-1)
            scores = scores.t()
            tokens = tokens.t().reshape(-1)
            finished = finished + step
        return scores, finished
