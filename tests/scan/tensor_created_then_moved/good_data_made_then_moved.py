# Host data made into a tensor and moved (it has to cross anyway), and a table made on the device.
import torch


def encode(words, vocab, device):
    ids = torch.LongTensor([vocab[w] for w in words])
    if torch.cuda.is_available():
        ids = ids.cuda()
    return ids


def timestep_embedding(timesteps, dim):
    half = dim // 2
    freqs = torch.exp(torch.arange(half, dtype=torch.float32, device=timesteps.device) * -0.1)
    return timesteps.float()[:, None] * freqs[None, :]


if __name__ == "__main__":
    vocab = {"a": 0, "b": 1}
    for step in range(100):
        print(encode(["a", "b"], vocab, "cuda"))
