// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IRecycle {
    function recycle(uint256 tokenId, address payable rewardReceiver) external;
}

/// Refuses every payment: recycling to it must fail as a whole.
contract RejectingReceiver {
    error PaymentRefused();

    receive() external payable {
        revert PaymentRefused();
    }
}

/// Holds MINTER_ROLE in the test and, while being paid, recycles the same token again to be paid twice.
contract ReentrantRecycler {
    IRecycle private immutable passport;
    uint256 public targetTokenId;
    uint256 public reentryAttempts;
    bytes public reentryError;

    constructor(IRecycle passport_) {
        passport = passport_;
    }

    function setTarget(uint256 tokenId) external {
        targetTokenId = tokenId;
    }

    receive() external payable {
        if (reentryAttempts > 0) return;
        reentryAttempts++;
        try passport.recycle(targetTokenId, payable(address(this))) {}
        catch (bytes memory reason) {
            reentryError = reason;
        }
    }
}
