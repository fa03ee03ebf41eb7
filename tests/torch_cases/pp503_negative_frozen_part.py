import torch


class Metric:
    def __init__(self, num_images):
        self.num_images = num_images

    def evaluate(self, encoder, batches):
        distances = []
        for x in batches:
            z = encoder(x.cuda())
            distances.append(z.norm().cpu())  # expect: PP501
        return torch.stack(distances).mean()


def sample(build_model, batches):
    model = build_model()
    model.cuda()
    model.eval()
    model.requires_grad_(False)
    encoder = model.encoder
    encoder = torch.nn.DataParallel(encoder)
    with torch.no_grad():
        metric = Metric(num_images=10000)
        print(metric.evaluate(encoder, batches))
