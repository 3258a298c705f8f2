import { type FormEvent, useEffect, useState } from 'react';
import { type Environment, type Member, type Role, type SessionUser, team } from '../api.ts';
import { ActionsHeader } from '../components/actions-header.tsx';
import { ConfirmRemove } from '../components/confirm-remove.tsx';
import { ErrorAlert } from '../components/error-alert.tsx';
import { LiveStatus } from '../components/live-status.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useFailure } from '../hooks/use-failure.ts';
import { useList } from '../hooks/use-list.ts';
import { usePageHeading } from '../hooks/use-page-heading.ts';
import { useRight } from '../rights.tsx';

interface TeamProps {
  user: SessionUser;
  environment: Environment;
  onSessionEnded: (error: unknown) => boolean;
  /** The signed-in person's own role changed (they stepped down): the console follows. */
  onOwnRoleChanged: (role: Role) => void;
}

const ROLES: { value: Role; label: string; meaning: string }[] = [
  { value: 'owner', label: 'Owner', meaning: 'everything, including who has which role' },
  { value: 'developer', label: 'Developer', meaning: 'API keys and the integration' },
  { value: 'viewer', label: 'Viewer', meaning: 'sees everything, changes nothing' },
];
const joined = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const listMembers = async (environment: Environment) => (await team.list(environment)).members;

/** Settings › Team: the company's people and their roles; owners change them. */
export function Team({ user, environment, onSessionEnded, onOwnRoleChanged }: TeamProps) {
  const { error, setError, fail } = useFailure(onSessionEnded);
  const { items: members, setItems: setMembers, load } = useList(listMembers, environment, fail);
  const { busy: inviting, status, setStatus, act } = useAction({ load, fail, onStart: () => setError(null) });
  const [busy, setBusy] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const heading = usePageHeading('Team');
  const isOwner = useRight('manageTeam');

  useEffect(() => {
    void load();
  }, [load]);

  const change = async (member: Member, role: Role) => {
    setBusy(member.id);
    setError(null);
    try {
      const answer = await team.changeRole(environment, member.id, role);
      setMembers((current) => current?.map((m) => (m.id === answer.member.id ? answer.member : m)) ?? null);
      setStatus(`${answer.member.email} is now ${answer.member.role}.`);
      if (member.id === user.id) onOwnRoleChanged(answer.member.role);
    } catch (caught) {
      // The list is unchanged, so each select still shows the role the person has.
      fail(caught);
    } finally {
      setBusy(null);
    }
  };

  const remove = async (member: Member) => {
    setBusy(member.id);
    setError(null);
    try {
      await team.remove(environment, member.id);
      setConfirming(null);
      setMembers((current) => current?.filter((m) => m.id !== member.id) ?? null);
      setStatus(`${member.email} was removed from ${user.companyName}; their sessions ended.`);
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(null);
    }
  };

  const invite = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    return act(async () => {
      const answer = await team.invite(
        environment,
        String(data.get('email')),
        String(data.get('role')) as Role,
      );
      form.reset();
      return `Invitation sent to ${answer.member.email}.`;
    });
  };

  return (
    <section aria-labelledby="team-heading">
      <h1 id="team-heading" ref={heading} tabIndex={-1}>
        Team
      </h1>
      <p className="lede">
        The people of {user.companyName}. Roles hold in both environments.{' '}
        {isOwner
          ? 'As an owner you give each person their role.'
          : `Your role is ${user.role}, which cannot give roles or invite people.`}{' '}
        People who sign in through your company’s SSO join as viewers.
      </p>
      <ul className="role-list">
        {ROLES.map((role) => (
          <li key={role.value}>
            <strong>{role.label}</strong>: {role.meaning}
          </li>
        ))}
      </ul>
      {isOwner ? (
        <>
          <h2>Invite a person</h2>
          <form className="inline-form" onSubmit={invite}>
            <div className="field">
              <label htmlFor="invite-email">E-mail</label>
              <input id="invite-email" name="email" type="email" required autoComplete="off" />
            </div>
            <div className="field narrow">
              <label htmlFor="invite-role">Role</label>
              <select id="invite-role" name="role" defaultValue="developer">
                {ROLES.map((role) => (
                  <option key={role.value} value={role.value}>
                    {role.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" disabled={inviting}>
              Send invitation
            </button>
          </form>
          <p className="hint">
            They get a mail with a link (valid 7 days) to choose their password. Removing a person deletes
            their account and ends their sessions at once; the company’s keys and data stay.
          </p>
        </>
      ) : null}
      <LiveStatus status={status} className="success" />
      <ErrorAlert error={error} />
      <h2>People</h2>
      {members === null ? (
        <p role="status">Loading the team…</p>
      ) : (
        <table className="keys">
          <caption className="visually-hidden">People of {user.companyName}</caption>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Role</th>
              <th scope="col">E-mail</th>
              <th scope="col">Joined</th>
              {isOwner ? <ActionsHeader /> : null}
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.id}>
                <td data-label="Person">
                  {member.email}
                  {member.id === user.id ? ' (you)' : ''}
                </td>
                <td data-label="Role">
                  {isOwner ? (
                    <select
                      aria-label={`Role of ${member.email}`}
                      value={member.role}
                      disabled={busy !== null}
                      onChange={(event) => change(member, event.target.value as Role)}
                    >
                      {ROLES.map((role) => (
                        <option key={role.value} value={role.value}>
                          {role.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    ROLES.find((role) => role.value === member.role)?.label
                  )}
                </td>
                <td data-label="E-mail">{member.emailConfirmed ? 'Confirmed' : 'Not confirmed yet'}</td>
                <td data-label="Joined">{joined.format(new Date(member.createdAt))}</td>
                {isOwner ? (
                  <td>
                    {member.id === user.id ? null : (
                      <div className="actions">
                        <ConfirmRemove
                          name={member.email}
                          verb="Remove"
                          doing="removing"
                          confirming={confirming === member.id}
                          busy={busy !== null}
                          onAsk={() => setConfirming(member.id)}
                          onCancel={() => setConfirming(null)}
                          onConfirm={() => void remove(member)}
                        />
                      </div>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
