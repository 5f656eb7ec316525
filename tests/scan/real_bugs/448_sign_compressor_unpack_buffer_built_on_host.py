# source: https://github.com/jiaweizzhao/signSGD-with-Majority-Vote/pull/1
# kind: per_step_host_alloc
# bug: the sign-gradient compressor allocated its padding and unpacking buffers with torch.zeros(...) on the host on every compress/uncompress call and only then copied them to the GPU with .cuda(local_rank), adding a host allocation plus a host-to-device copy per gradient per step; the fix allocates the buffers directly on the target device.
# split: test21
import torch


def pack_bits(bits):
    weights = (2 ** torch.arange(32, device=bits.device, dtype=torch.int64)).view(32, 1)
    return (bits.to(torch.int64) * weights).sum(dim=0)


def unpack_bits(packed, out):
    shifts = torch.arange(32, device=packed.device, dtype=torch.int64).view(32, 1)
    out.copy_(((packed.view(1, -1) >> shifts) & 1).to(out.dtype))
    return out


class SignCompressor:
    def __init__(self, using_cuda=False, local_rank=0):
        self.using_cuda = using_cuda
        self.local_rank = local_rank

    def packing(self, src_tensor):
        src_tensor_size = src_tensor.size()
        src_tensor = src_tensor.view(-1)
        src_len = len(src_tensor)
        add_elm = 0 if src_len % 32 == 0 else 32 - (src_len % 32)
        pad = torch.zeros([add_elm], dtype=torch.float32)
        if self.using_cuda:
            pad = pad.cuda(self.local_rank)
        src_tensor = torch.cat((src_tensor, pad), 0)
        bits = (src_tensor.view(32, -1) > 0).int()
        return pack_bits(bits), src_tensor_size

    def element_num(self, size):
        num = 1
        for s in size:
            num *= s
        return num

    def unpacking(self, packed, src_tensor_size):
        n = self.element_num(src_tensor_size)
        add_elm = 0 if n % 32 == 0 else 32 - (n % 32)
        buf = torch.zeros(n + add_elm)  # bug: per_step_host_alloc
        if self.using_cuda:
            buf = buf.cuda(self.local_rank)
        buf = (buf + 1).view(32, -1).int()
        buf = unpack_bits(packed, buf)
        return buf.view(-1)[:n].view(src_tensor_size)

    def compress(self, grad):
        return self.packing(torch.sign(grad))

    def uncompress(self, packed, size):
        bits = self.unpacking(packed, size)
        return (bits * 2 - 1).float()


if __name__ == "__main__":
    use_cuda = torch.cuda.is_available()
    comp = SignCompressor(using_cuda=use_cuda, local_rank=0)
    device = torch.device("cuda:0" if use_cuda else "cpu")
    grads = [torch.randn(1000, 100, device=device) for _ in range(5)]
    for step in range(20):
        for g in grads:
            packed, size = comp.compress(g)
            restored = comp.uncompress(packed, size)
    print(restored.shape)
