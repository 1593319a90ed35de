import { Type, type Static } from 'typebox';
import { Ghs, Success, Timestamp } from '../../lib/wire.js';

export const Profile = Type.Object({
  _id: Type.String(),
  _creationTime: Timestamp(),
  userId: Type.String(),
  firstName: Type.String(),
  middleName: Type.String(),
  lastName: Type.String(),
  fullName: Type.String(),
  gender: Type.String(),
  phoneNumber: Type.String(),
  email: Type.String(),
  role: Type.String(),
  status: Type.String(),
  countryCode: Type.String(),
  countryISO: Type.String(),
  countryName: Type.String(),
  referralCode: Type.String(),
  uniqueId: Type.String(),
  creatorId: Type.String(),
  registeredAt: Timestamp(),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
  updateMeta: Type.Object({ action: Type.String(), name: Type.String(), userId: Type.String() }),
  walletAvailableBalance: Ghs('Immediately spendable funds, GHS'),
  walletHeldBalance: Ghs('Funds reserved for pending orders, GHS'),
  walletTotalBalance: Ghs('Available plus held, GHS'),
});
export type Profile = Static<typeof Profile>;
export const ProfileResponse = Success(Profile);
