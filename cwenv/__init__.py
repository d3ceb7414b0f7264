"""cwenv: the Corporate Wars combat simulator and AI-opponent training ground."""

__version__ = "0.1.0"
