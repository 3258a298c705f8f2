// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {BasePaymaster} from "@account-abstraction/contracts/core/BasePaymaster.sol";
import {_packValidationData} from "@account-abstraction/contracts/core/Helpers.sol";
import {UserOperationLib} from "@account-abstraction/contracts/core/UserOperationLib.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// @title The DPP service's gas sponsor (ERC-4337 verifying paymaster, EntryPoint v0.8)
/// @notice Pays for a user operation only when the service's sponsor key signed exactly that operation
/// (sender, nonce, init code, call data, gas limits and fees) for this chain and this paymaster, within a
/// validity window. Which operations get a signature (claims, resale transfers) and how many per company and
/// person is decided off chain by the service's sponsorship policy.
/// paymasterAndData = paymaster (20) | verification gas (16) | post-op gas (16) | validUntil (6) |
/// validAfter (6) | signature (65).
contract SponsorPaymaster is BasePaymaster {
    using UserOperationLib for PackedUserOperation;

    uint256 private constant WINDOW_OFFSET = PAYMASTER_DATA_OFFSET;
    uint256 private constant SIGNATURE_OFFSET = PAYMASTER_DATA_OFFSET + 12;

    address public sponsorSigner;

    event SponsorSignerChanged(address indexed previous, address indexed current);

    error InvalidPaymasterData(uint256 length);

    constructor(IEntryPoint anEntryPoint, address owner, address signer) BasePaymaster(anEntryPoint) {
        sponsorSigner = signer;
        emit SponsorSignerChanged(address(0), signer);
        _transferOwnership(owner);
    }

    function setSponsorSigner(address signer) external onlyOwner {
        emit SponsorSignerChanged(sponsorSigner, signer);
        sponsorSigner = signer;
    }

    /// @notice What the sponsor key signs (as an EIP-191 personal message) to sponsor `userOp`.
    function sponsorHash(PackedUserOperation calldata userOp, uint48 validUntil, uint48 validAfter)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            abi.encode(
                userOp.sender,
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.accountGasLimits,
                bytes32(userOp.paymasterAndData[PAYMASTER_VALIDATION_GAS_OFFSET:WINDOW_OFFSET]),
                userOp.preVerificationGas,
                userOp.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter
            )
        );
    }

    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        bytes calldata data = userOp.paymasterAndData;
        if (data.length != SIGNATURE_OFFSET + 65) revert InvalidPaymasterData(data.length);
        uint48 validUntil = uint48(bytes6(data[WINDOW_OFFSET:WINDOW_OFFSET + 6]));
        uint48 validAfter = uint48(bytes6(data[WINDOW_OFFSET + 6:SIGNATURE_OFFSET]));
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(sponsorHash(userOp, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError error,) = ECDSA.tryRecover(digest, data[SIGNATURE_OFFSET:]);
        bool failed = error != ECDSA.RecoverError.NoError || recovered != sponsorSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }
}
