# source: https://github.com/sbi-dev/sbi/pull/1448
# also: https://github.com/sbi-dev/sbi/commit/7d43073746934f8c9c2fb3d4e6bb74b75020016f
# kind: attribute_not_buffer
# bug: the categorical MADE density estimator kept its per-variable category mask as a plain torch.zeros attribute, so after .to("cuda") forward filled CUDA logits with a CPU mask; the fix registers the mask as a buffer.
# split: test4
import torch
import torch.nn as nn


class MaskedCategoricalNet(nn.Module):
    def __init__(self, categories_per_var, hidden=64, context_dim=0):
        super().__init__()
        counts = torch.as_tensor(categories_per_var)
        self.n_vars = len(categories_per_var)
        self.n_cats = int(counts.max())
        self.valid = torch.zeros(self.n_vars, self.n_cats)  # bug: attribute_not_buffer
        for i, c in enumerate(categories_per_var):
            self.valid[i, :c] = 1
        self.body = nn.Sequential(
            nn.Linear(self.n_vars + context_dim, hidden),
            nn.ReLU(),
            nn.Linear(hidden, self.n_vars * self.n_cats),
        )

    def forward(self, values, context=None):
        h = values if context is None else torch.cat([values, context], dim=-1)
        logits = self.body(h)
        return logits.masked_fill(~self.valid.bool().flatten(), float("-inf"))

    def log_prob(self, values, context=None):
        logits = self(values, context).view(-1, self.n_vars, self.n_cats)
        logp = torch.log_softmax(logits, dim=-1)
        return logp.gather(-1, values.long().unsqueeze(-1)).squeeze(-1).sum(-1)


if __name__ == "__main__":
    net = MaskedCategoricalNet([3, 5, 2]).to("cuda")
    x = torch.tensor([[0.0, 4.0, 1.0]], device="cuda")
    print(net.log_prob(x))
