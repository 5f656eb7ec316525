# A cache updated at every step of a script's own loop: its new buffer is made on the host and copied to
# the device of the old one by .type_as(); and a compressor whose helper method, called by the method a
# loop calls, allocates on the host and moves the buffer under a flag.
import torch


class GrowingCache:
    def __init__(self, root):
        self.root = root

    def grow(self, extra):
        m = self.root.shape[0]
        grown = torch.zeros(m + extra, m + extra).type_as(self.root)  # expect: code.tensor_created_then_moved
        grown[:m, :m] = self.root
        self.root = grown
        return grown


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    cache = GrowingCache(torch.eye(4, device=device))
    for step in range(100):
        cache.grow(2)


class SignCompressor:
    def __init__(self, use_cuda=False):
        self.use_cuda = use_cuda

    def unpack(self, n):
        buf = torch.zeros(n)  # expect: code.tensor_created_then_moved
        if self.use_cuda:
            buf = buf.cuda()
        return buf

    def uncompress(self, packed):
        return self.unpack(packed.numel()) + packed.float().flatten()


def run(grads):
    comp = SignCompressor(use_cuda=torch.cuda.is_available())
    for g in grads:
        comp.uncompress(torch.sign(g))
