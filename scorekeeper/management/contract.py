"""What the public contracts' commands (``replay``, ``trick``,
``standings``) share."""

from __future__ import annotations

from django.core.management.base import BaseCommand


class ContractCommand(BaseCommand):
    """A contract's command: its answer and its one-line refusal are all it
    prints. The site's system checks (offline.W001 on a server built
    without Node.js) are the server's business, not this command's."""

    requires_system_checks: list[str] = []
