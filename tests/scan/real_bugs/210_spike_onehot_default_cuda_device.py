# source: https://github.com/jeshraghian/snntorch/pull/115
# also: https://github.com/jeshraghian/snntorch/commit/3876602df66c4f3ec2ff58adebfec4a42483e1e5
# kind: other
# bug: the spike-generation helpers picked their output device with torch.device("cuda") if data.is_cuda else torch.device("cpu"), which means the default GPU, so for inputs and targets on cuda:1 the one-hot/rate tensors were built on cuda:0 and the next op mixed devices; the fix uses data.device (targets.device).
# split: test8
import torch


def to_one_hot(targets, num_classes, dtype=torch.float):
    device = torch.device("cuda") if targets.is_cuda else torch.device("cpu")  # bug: other
    one_hot = torch.zeros([len(targets), num_classes], device=device, dtype=dtype)
    return one_hot.scatter(1, targets.unsqueeze(-1), 1)


def targets_rate(targets, num_classes, num_steps, correct_rate=1.0, incorrect_rate=0.0):
    one_hot = to_one_hot(targets, num_classes)
    rate = one_hot * correct_rate + (1 - one_hot) * incorrect_rate
    return torch.bernoulli(rate.unsqueeze(0).repeat(num_steps, 1, 1))


def mse_count_loss(spk_out, targets, num_classes, num_steps):
    target_spikes = targets_rate(targets, num_classes, num_steps)
    return torch.nn.functional.mse_loss(spk_out.sum(0), target_spikes.sum(0))


if __name__ == "__main__":
    dev = torch.device("cuda:1")
    net = torch.nn.Linear(784, 10).to(dev)
    x = torch.rand(25, 128, 784, device=dev)
    y = torch.randint(0, 10, (128,), device=dev)
    spk = torch.sigmoid(net(x))
    loss = mse_count_loss(spk, y, 10, 25)
    loss.backward()
