# source: https://github.com/deepset-ai/FARM/pull/200
# also: https://github.com/deepset-ai/FARM/commit/6518a7ba0a4c6da6a1a85455dbe87b0eca583209
# kind: model_not_moved
# bug: the adaptive model moved its language model and prediction heads to the device in __init__, but fitting the heads to the language model's output size (and to the number of labels) replaced each head's feed-forward block with a brand-new one built on the CPU, after the move; the fix calls head.to(self.device) after every resize.
# split: test7
import torch
import torch.nn as nn


class FeedForward(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layer_dims = list(dims)
        layers = []
        for a, b in zip(dims[:-1], dims[1:]):
            layers += [nn.Linear(a, b), nn.ReLU()]
        self.net = nn.Sequential(*layers[:-1])

    def forward(self, x):
        return self.net(x)


class TokenClassificationHead(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.feed_forward = FeedForward(dims)

    def resize_input(self, input_dim):
        old = self.feed_forward.layer_dims
        if old[0] != input_dim:
            self.feed_forward = FeedForward([input_dim] + old[1:])  # bug: model_not_moved

    def forward(self, hidden):
        return self.feed_forward(hidden)


class AdaptiveModel(nn.Module):
    def __init__(self, language_model, heads, device):
        super().__init__()
        self.device = device
        self.language_model = language_model.to(device)
        self.lm_output_dim = language_model.config.hidden_size
        self.heads = nn.ModuleList([h.to(device) for h in heads])
        self.fit_heads_to_lm()

    def fit_heads_to_lm(self):
        for head in self.heads:
            head.resize_input(self.lm_output_dim)

    def forward(self, input_ids, attention_mask):
        hidden = self.language_model(input_ids=input_ids, attention_mask=attention_mask)[0]
        return [head(hidden) for head in self.heads]
