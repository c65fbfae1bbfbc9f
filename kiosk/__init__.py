"""The kiosk: the FastAPI app and page, the service that wires everything together, and the `gamao` CLI."""
