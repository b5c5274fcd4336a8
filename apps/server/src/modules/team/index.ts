import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { teamRoutes } from './team.routes.ts';
import { createTeamService, type TeamService } from './team.service.ts';

// Settings > Team (DESIGN 16): a merchant's users and invitations, and the public invitation page's calls.
export type { TeamService } from './team.service.ts';

export function registerTeamModule(app: FastifyInstance, ctx: AppContext): TeamService {
  const team = createTeamService({
    db: ctx.db,
    appKey: ctx.config.appKey,
    now: ctx.now,
    mail: ctx.mail,
    notifications: ctx.notifications,
    publicUrl: ctx.config.publicUrl,
  });
  teamRoutes(app, { guards: ctx.guards, team, sessions: ctx.sessions });
  return team;
}
