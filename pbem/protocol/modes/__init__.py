"""The dealer modes, one strategy each (DESIGN.md section 5).

* `base`: the two small interfaces every mode has (`FileRules`: how it
  judges files; `Duties`: who owes what), and what they share.
* `dealt`: hotseat and referee, in which one dealer owns every hidden card
  and all chance (`DealtMode`, one for each).
* `peer`: no third party (`PeerMode`); imports PyNaCl, so the chain
  imports it only for a peer game (`pbem.protocol.genesis.mode_of`).
"""
