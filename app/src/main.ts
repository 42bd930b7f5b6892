/**
 * The service's app (`/app/`): Team & Settings > Publish. Sign in, choose a company, manage its
 * widgets; see docs/architecture.md, "The app".
 */
import { App, type Company, type View, type Views } from './app.ts';
import { CreateView } from './create.ts';
import { CompaniesView, LecturerView, NoCompanyView, TeamView } from './pages.ts';
import { PublishView } from './publish.ts';
import { SignInView } from './sign-in.ts';
import { WidgetView } from './widget.ts';

/** A view of Publish, for an owner or a member; a lecturer gets the page that says why there is none. */
const publishing =
  <R>(view: (app: App, company: Company, route: R) => View) =>
  (app: App, company: Company, route: R): View =>
    company.role === 'lecturer' ? new LecturerView(app) : view(app, company, route);

const views: Views = {
  'sign-in': (app) => new SignInView(app),
  companies: (app) => new CompaniesView(app),
  'no-company': (app) => new NoCompanyView(app),
  publish: publishing((app, company, route) => new PublishView(app, company, route.type)),
  new: publishing((app, company) => new CreateView(app, company)),
  widget: publishing((app, company, route) => new WidgetView(app, company, route.id)),
  team: publishing((app, company) => new TeamView(app, company)),
};

void new App(document.querySelector<HTMLElement>('#app')!, views).start();
