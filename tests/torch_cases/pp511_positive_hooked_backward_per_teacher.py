import torch


def train_distill(loader, model_s, teachers, regressors, criterion_kd, criterion_cls, optimizer):
    for x, target in loader:
        x, target = x.cuda(), target.cuda()
        feat_s, logit_s = model_s(x)
        with torch.no_grad():
            feats_t = [t(x)[0] for t in teachers]
        f_s_list = [regress(feat_s) for regress in regressors]
        grads = []
        feat_s.register_hook(lambda grad, store=grads: store.append(grad.clone()))
        hint_losses = []
        for f_s, f_t in zip(f_s_list, feats_t, strict=True):
            optimizer.zero_grad()
            loss_hint = criterion_kd(f_s, f_t)
            loss_hint.backward(retain_graph=True)  # expect: PP511 low
            hint_losses.append(loss_hint)
        scale = torch.softmax(torch.stack([g.norm() for g in grads]), 0)
        loss = criterion_cls(logit_s, target) + torch.dot(scale, torch.stack(hint_losses))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
