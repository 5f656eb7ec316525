# source: https://github.com/pykeen/pykeen/pull/658
# kind: inputs_not_moved
# bug: the knowledge-graph model's predict_* helpers passed the caller's (CPU) head/relation/tail index batches straight to the scoring functions, so predicting with a model trained on the GPU failed with a device mismatch in the embedding lookups; the fix moves each batch to the model's device first.
# split: test20
import torch
import torch.nn as nn


class TransE(nn.Module):
    def __init__(self, num_entities, num_relations, dim=50, predict_with_sigmoid=False):
        super().__init__()
        self.entity = nn.Embedding(num_entities, dim)
        self.relation = nn.Embedding(num_relations, dim)
        self.predict_with_sigmoid = predict_with_sigmoid

    @property
    def device(self):
        return self.entity.weight.device

    def score_hrt(self, hrt_batch):
        h, r, t = (self.entity(hrt_batch[:, 0]), self.relation(hrt_batch[:, 1]), self.entity(hrt_batch[:, 2]))
        return -(h + r - t).norm(p=1, dim=-1, keepdim=True)

    def score_t(self, hr_batch):
        h, r = self.entity(hr_batch[:, 0]), self.relation(hr_batch[:, 1])
        return -((h + r)[:, None, :] - self.entity.weight[None]).norm(p=1, dim=-1)

    def predict_t(self, hr_batch):
        self.eval()
        scores = self.score_t(hr_batch)  # bug: inputs_not_moved
        return torch.sigmoid(scores) if self.predict_with_sigmoid else scores


def train(model, triples, epochs=5, lr=0.01):
    device = model.device
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        pos = triples.to(device)
        neg = pos.clone()
        neg[:, 2] = torch.randint(0, model.entity.num_embeddings, (len(neg),), device=device)
        loss = torch.relu(1.0 + model.score_hrt(neg) - model.score_hrt(pos)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    mapped_triples = torch.randint(0, 100, (500, 3)) % torch.tensor([100, 10, 100])
    model = TransE(100, 10).to(device)
    train(model, mapped_triples)
    with torch.no_grad():
        scores = model.predict_t(torch.tensor([[3, 1], [7, 2]]))
    print(scores.topk(5, dim=1).indices)
