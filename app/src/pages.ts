/**
 * The small views: the company picker, a company the user has no role in, the page a lecturer gets
 * in place of Publish, and the team (read-only).
 */
import { html, nothing } from 'lit';
import type { Team } from '../../contract/rest-client.ts';
import type { App, Company, View } from './app.ts';
import { href } from './routes.ts';
import { said, sayText, type Said } from './ui.ts';

export class CompaniesView implements View {
  #app: App;
  constructor(app: App) {
    this.#app = app;
  }

  title() {
    return this.#app.user?.companies.length ? this.#app.t.companiesTitle : this.#app.t.noCompaniesTitle;
  }

  render() {
    const { t, user } = this.#app;
    const companies = user?.companies ?? [];
    return html`<div class="wrap page">
      <h1 tabindex="-1">${this.title()}</h1>
      ${
        companies.length
          ? html`<p class="lead">${t.companiesLead}</p>
            <ul class="company-list">
              ${companies.map(
                (c) =>
                  html`<li>
                    <a class="card link-card company-card" href=${href.publish(c.id)}>
                      <span class="company-card-name"><bdi>${c.name}</bdi></span>
                      <span class="tag">${t.roles[c.role]}</span>
                    </a>
                  </li>`,
              )}
            </ul>`
          : html`<p class="empty-state">${t.noCompanies}</p>`
      }
    </div>`;
  }
}

export class NoCompanyView implements View {
  #app: App;
  constructor(app: App) {
    this.#app = app;
  }

  title() {
    return this.#app.t.notYourCompanyTitle;
  }

  render() {
    const { t } = this.#app;
    return html`<div class="wrap page">
      <h1 tabindex="-1">${this.title()}</h1>
      <p class="empty-state">${t.notYourCompany} <a href=${href.companies()}>${t.companiesTitle}</a></p>
    </div>`;
  }
}

/** What a lecturer finds under Publish: why there is nothing, and whom to ask. */
export class LecturerView implements View {
  #app: App;
  constructor(app: App) {
    this.#app = app;
  }

  title() {
    return this.#app.t.lecturerTitle;
  }

  render() {
    return html`<div class="wrap page">
      <h1 tabindex="-1">${this.title()}</h1>
      <p class="empty-state lecturer-note">${this.#app.t.lecturerText}</p>
    </div>`;
  }
}

export class TeamView implements View {
  #app: App;
  #company: Company;
  #team: Team['team'] | undefined;
  #error: Said | undefined;

  constructor(app: App, company: Company) {
    this.#app = app;
    this.#company = company;
    void this.#load();
  }

  async #load() {
    this.#error = undefined;
    try {
      this.#team = (await this.#app.api.team({ company: this.#company.id })).team;
    } catch (error) {
      this.#error = said(this.#app.t, error);
    }
    this.#app.update();
  }

  title() {
    return this.#app.t.teamTitle;
  }

  render() {
    const { t, user } = this.#app;
    const team = this.#team;
    return html`<div class="wrap page">
      <h1 tabindex="-1">${this.title()}</h1>
      <p class="lead">${t.teamLead}</p>
      ${
        this.#error
          ? html`<p class="note bad" role="alert">${sayText(this.#error)}</p>
            <button type="button" class="secondary" @click=${() => void this.#load()}>${t.retry}</button>`
          : !team
            ? html`<p class="loading" role="status">${t.loading}</p>`
            : html`<div class="card table-card">
              <table class="data-table" role="table">
                <caption class="visually-hidden">
                  ${t.teamCaption}
                </caption>
                <thead>
                  <tr role="row">
                    <th scope="col" role="columnheader">${t.colName}</th>
                    <th scope="col" role="columnheader">${t.colEmail}</th>
                    <th scope="col" role="columnheader">${t.colRole}</th>
                  </tr>
                </thead>
                <tbody>
                  ${team.map(
                    (m) =>
                      html`<tr role="row">
                        <th scope="row" role="rowheader">
                          <bdi>${m.first_name} ${m.last_name}</bdi>${m.id === user?.id ? html` <span class="muted">${t.you}</span>` : nothing}
                        </th>
                        <td role="cell"><span class="cell-label" aria-hidden="true">${t.colEmail}</span>${m.email}</td>
                        <td role="cell">
                          <span class="cell-label" aria-hidden="true">${t.colRole}</span><span class="tag">${t.roles[m.role]}</span>
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </div>`;
  }
}
