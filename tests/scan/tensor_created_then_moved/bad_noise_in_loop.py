import torch


def train_gan(generator, discriminator, loader, g_opt, d_opt, device, z_dim=128):
    for real, _ in loader:
        real = real.to(device)
        b = real.size(0)
        z = torch.randn(b, z_dim).to(device)  # expect: code.tensor_created_then_moved
        ones = torch.ones(b, 1).cuda()  # expect: code.tensor_created_then_moved
        zeros = torch.zeros(b, 1, dtype=torch.float32).to(device=device)  # expect: code.tensor_created_then_moved
        with torch.autocast("cuda"):
            fake = generator(z)
            d_loss = torch.nn.functional.binary_cross_entropy_with_logits(discriminator(real), ones) + \
                torch.nn.functional.binary_cross_entropy_with_logits(discriminator(fake.detach()), zeros)
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
