/// Local stand-ins for Google and Apple that speak the real wire formats over real sockets.
public enum StandIns {}
