"""The FastAPI application: routers, auth, problem+json errors."""
