"""Export a MaskablePPO policy to a safe bundle (safetensors + manifest).

Only the actor is exported: SB3's ``CombinedExtractor`` flattens each observation key (in
its own key order) and concatenates them, ``mlp_extractor.policy_net`` is a stack of
Linear+activation layers, and ``action_net`` gives the logits. The bundle replays exactly
that with numpy (:mod:`agents.policy.bundle`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.policy.bundle import (
    Activation,
    BundleError,
    Layer,
    Manifest,
    ObservationKey,
    PolicyBundle,
    TrainingInfo,
    write_bundle,
)
from agents.policy.compat import current_encoding_fields

_ACTIVATIONS: dict[type[nn.Module], Activation] = {nn.Tanh: "tanh", nn.ReLU: "relu"}


def actor_layout(policy: Any) -> list[tuple[Layer, str]]:
    """The actor's dense layers in order, each with the prefix of its tensors in the
    policy's ``state_dict`` (``mlp_extractor.policy_net.0``, …, ``action_net``)."""
    out: list[tuple[Layer, str]] = []
    modules = list(policy.mlp_extractor.policy_net)
    i = 0
    while i < len(modules):
        module = modules[i]
        if not isinstance(module, nn.Linear):
            raise ValueError(f"unexpected module {module!r} in the policy network")
        source = f"mlp_extractor.policy_net.{i}"
        activation: Activation = "identity"
        if i + 1 < len(modules) and type(modules[i + 1]) in _ACTIVATIONS:
            activation = _ACTIVATIONS[type(modules[i + 1])]
            i += 1
        layer = Layer(
            name=f"pi.{len(out)}",
            in_features=module.in_features,
            out_features=module.out_features,
            activation=activation,
        )
        out.append((layer, source))
        i += 1
    head = policy.action_net
    layer = Layer(
        name="head",
        in_features=head.in_features,
        out_features=head.out_features,
        activation="identity",
    )
    out.append((layer, "action_net"))
    return out


def policy_layers(policy: Any) -> tuple[list[Layer], dict[str, np.ndarray]]:
    """The actor's dense layers and their tensors, in order."""
    state = policy.state_dict()
    layers: list[Layer] = []
    tensors: dict[str, np.ndarray] = {}
    for layer, source in actor_layout(policy):
        layers.append(layer)
        for part in ("weight", "bias"):
            value = state[f"{source}.{part}"].detach().cpu().numpy().astype(np.float32)
            tensors[f"{layer.name}.{part}"] = value
    return layers, tensors


def observation_keys(policy: Any) -> list[ObservationKey]:
    """Keys in the order SB3's CombinedExtractor concatenates them, with their shapes."""
    space = policy.observation_space
    order = list(policy.features_extractor.extractors.keys())
    return [ObservationKey(name=k, shape=list(space[k].shape)) for k in order]


def export_policy(
    model: Any,
    out: str | Path,
    *,
    scenario: str,
    side: str,
    rules: dict[str, object],
    training: dict[str, object],
) -> Path:
    """Write the bundle of a trained MaskablePPO ``model`` to ``out`` (trained on this
    cwenv's encoding for the action window in ``training``)."""
    policy = model.policy
    layers, tensors = policy_layers(policy)
    window = TrainingInfo.model_validate(training)
    manifest = Manifest(
        algorithm="MaskablePPO",
        **current_encoding_fields(window.move_radius, window.drag_radius),
        action_size=int(policy.action_space.n),
        observation=observation_keys(policy),
        policy=layers,
        scenario=scenario,
        side=side,
        rules=rules,
        training=training,
        weights_sha256="0" * 64,
    )
    return write_bundle(out, manifest, tensors)


@torch.no_grad()
def load_actor(policy: Any, bundle: PolicyBundle) -> None:
    """Copy a bundle's actor into a fresh MaskablePPO policy (the warm start of a run).

    The inverse of :func:`policy_layers`: the observation keys, every layer's shape and
    activation must match the new policy, or :class:`BundleError` says which does not.
    The value head stays as initialised; PPO fits it from the first rollouts.
    """
    ours, _ = policy_layers(policy)
    theirs = bundle.manifest.policy
    if observation_keys(policy) != bundle.manifest.observation:
        raise BundleError(
            f"{bundle.path}: observation keys {bundle.manifest.observation} do not match "
            f"the run's {observation_keys(policy)} (scenario, side and radii must agree)"
        )
    shape = [(x.in_features, x.out_features, x.activation) for x in ours]
    given = [(x.in_features, x.out_features, x.activation) for x in theirs]
    if shape != given:
        raise BundleError(
            f"{bundle.path}: layers {given} do not match the run's network {shape} "
            "(net_arch, activation, action window)"
        )
    modules = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)]
    modules.append(policy.action_net)
    for module, (weight, bias, _) in zip(modules, bundle.layers(), strict=True):
        module.weight.copy_(torch.from_numpy(np.array(weight)))
        module.bias.copy_(torch.from_numpy(np.array(bias)))


@torch.no_grad()
def torch_logits(model: Any, obs: dict[str, np.ndarray]) -> np.ndarray:
    """The SB3 policy's action logits for one observation (for equivalence tests)."""
    policy = model.policy
    tensor_obs, _ = policy.obs_to_tensor(obs)
    features = policy.extract_features(tensor_obs, policy.pi_features_extractor)
    latent_pi = policy.mlp_extractor.forward_actor(features)
    logits: np.ndarray = policy.action_net(latent_pi).cpu().numpy()[0]
    return logits
