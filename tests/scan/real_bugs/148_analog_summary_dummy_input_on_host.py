# source: https://github.com/IBM/aihwkit/pull/392
# also: https://github.com/IBM/aihwkit/commit/e6b50b3e423977f4e9eafa7fd0c3148d843ef7da
# kind: inputs_not_moved
# bug: the layer-summary helper traced layer shapes by running the model on a dummy torch.zeros(input_size) built on the CPU, which failed once the analog model had been moved to CUDA; the fix reads the model's device from its parameters and moves the dummy input there.
# split: test5
import torch
import torch.nn as nn


class LayerRecord:
    def __init__(self, name, in_shape, out_shape):
        self.name = name
        self.in_shape = tuple(in_shape)
        self.out_shape = tuple(out_shape)


class ModelSummary:
    def __init__(self, model, input_size):
        self.model = model
        self.input_size = input_size
        self.handles = []

    def _attach(self, records):
        for name, module in self.model.named_modules():
            if isinstance(module, (nn.Linear, nn.Conv2d)):
                def hook(mod, inp, out, name=name):
                    records.append(LayerRecord(name, inp[0].shape, out.shape))
                self.handles.append(module.register_forward_hook(hook))

    def collect(self):
        records = []
        self._attach(records)
        probe = torch.zeros(self.input_size)
        with torch.no_grad():
            self.model(probe)  # bug: inputs_not_moved
        for handle in self.handles:
            handle.remove()
        return records


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))
    if torch.cuda.is_available():
        net = net.cuda()
    for rec in ModelSummary(net, (1, 64)).collect():
        print(rec.name, rec.in_shape, rec.out_shape)
